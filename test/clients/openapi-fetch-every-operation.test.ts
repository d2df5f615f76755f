import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import createClient from 'openapi-fetch';
import { beforeAll, describe, expect, it } from 'vitest';
import { callPlan } from '../support/generic-clients/call-plan.ts';
import { clientFolder, DOCUMENTS, documentOf } from '../support/generic-clients/client-folder.ts';
import { sendEveryOperation } from '../support/generic-clients/every-operation.ts';
import { openapiFetchCaller } from '../support/generic-clients/openapi-fetch-caller.ts';
import { typeErrors } from '../support/generic-clients/type-check.ts';

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

  beforeAll(async () => {
    folder = clientFolder('openapi-fetch-client-');
    for (const version of DOCUMENTS) {
      const document = documentOf(version);
      writeFileSync(join(folder, `${version}.ts`), astToString(await openapiTS(document as never, { silent: true })));
      writeFileSync(join(folder, `${version}-calls.ts`), openapiFetchCaller(callPlan(document), version));
    }
  }, 120_000);

  it('type-checks under strict TypeScript, with User-Agent and the token set once on the client, never per call', () => {
    expect(typeErrors(DOCUMENTS.map((version) => join(folder, `${version}-calls.ts`)))).toEqual([]);
  }, 120_000);

  it.each(DOCUMENTS)(
    'calls every operation of %s, each answered with a status the document lists for it',
    async (version) => {
      const report = await sendEveryOperation(version, folder, 'plain-openapi-fetch', (baseUrl, token, fetch) =>
        createClient({ baseUrl, headers: { Authorization: `Bearer ${token}`, 'User-Agent': USER_AGENT }, fetch }),
      );
      expect(report.undocumented).toEqual([]);
      // Every operation of the document was reached, each by its own call, and nothing else.
      expect(report.misdirected).toEqual([]);
      expect(report.reached).toEqual(report.operations);
      expect(report.userAgents).toEqual([USER_AGENT]);
    },
    120_000,
  );
});
