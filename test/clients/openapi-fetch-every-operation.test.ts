import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import createClient from 'openapi-fetch';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  callPlan,
  isDocumented,
  operationsOf,
  scopesOf,
  type PlannedCall,
} from '../support/generic-clients/call-plan.ts';
import { clientFolder, DOCUMENTS, documentOf } from '../support/generic-clients/client-folder.ts';
import { openapiFetchCaller } from '../support/generic-clients/openapi-fetch-caller.ts';
import { recordingFetch } from '../support/generic-clients/recorded-calls.ts';
import { typeErrors } from '../support/generic-clients/type-check.ts';
import { startApi } from '../support/start-api.ts';
import { issueToken } from '../support/token-cli.ts';

const USER_AGENT = 'plain-openapi-fetch/1.0';

/**
 * A client as a user makes one from the published documents with nothing of ours: plain
 * openapi-typescript writes the types of each document (not the project's generated client), a
 * module calls every operation of the document through openapi-fetch, strict tsc checks it, and
 * each call is sent to a running server on an empty database. The calls are written from the
 * document itself (each operation once, with its examples), so an operation added to a definition
 * is called here without anyone writing it down.
 */
describe('a client made by plain openapi-typescript + openapi-fetch from each published document', () => {
  let folder: string;
  const plans = new Map<string, PlannedCall[]>();

  beforeAll(async () => {
    folder = clientFolder('openapi-fetch-client-');
    for (const version of DOCUMENTS) {
      const document = documentOf(version);
      writeFileSync(join(folder, `${version}.ts`), astToString(await openapiTS(document as never, { silent: true })));
      plans.set(version, callPlan(document));
      writeFileSync(join(folder, `${version}-calls.ts`), openapiFetchCaller(plans.get(version)!, version));
    }
  }, 120_000);

  it('type-checks under strict TypeScript, with User-Agent and the token set once on the client, never per call', () => {
    expect(typeErrors(DOCUMENTS.map((version) => join(folder, `${version}-calls.ts`)))).toEqual([]);
  }, 120_000);

  it.each(DOCUMENTS)(
    'calls every operation of %s, each answered with a status the document lists for it',
    async (version) => {
      const document = documentOf(version);
      const plan = plans.get(version)!;
      const server = await startApi();
      try {
        const recorder = recordingFetch(document);
        const token = issueToken(server.databaseUrl, 'plain-openapi-fetch', { scopes: scopesOf(document) });
        const client = createClient<any>({
          baseUrl: server.url,
          headers: { Authorization: `Bearer ${token}`, 'User-Agent': USER_AGENT },
          fetch: recorder.fetch,
        });
        const { calls } = (await import(pathToFileURL(join(folder, `${version}-calls.ts`)).href)) as {
          calls: readonly { name: string; send: (client: unknown) => Promise<unknown> }[];
        };
        const undocumented: string[] = [];
        for (const [index, call] of calls.entries()) {
          await call.send(client);
          const answer = recorder.calls.at(-1)!;
          expect(answer.operation).toBe(call.name);
          if (!isDocumented(plan[index]!, answer.status)) undocumented.push(`${call.name} → ${answer.status}`);
        }
        expect(undocumented).toEqual([]);
        // Every operation of the document was reached, each by one call, and nothing else.
        expect(recorder.calls.map((answer) => answer.operation).sort()).toEqual(operationsOf(document).sort());
        expect(new Set(recorder.calls.map((answer) => answer.userAgent))).toEqual(new Set([USER_AGENT]));
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
