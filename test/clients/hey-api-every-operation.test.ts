import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient as generateClient } from '@hey-api/openapi-ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { callPlan } from '../support/generic-clients/call-plan.ts';
import { clientFolder, DOCUMENTS, documentOf, documentPath } from '../support/generic-clients/client-folder.ts';
import { sendEveryOperation } from '../support/generic-clients/every-operation.ts';
import { heyApiCaller } from '../support/generic-clients/hey-api-caller.ts';
import { HEY_API_SCENARIO } from '../support/generic-clients/hey-api-scenario.ts';
import { recordingFetch } from '../support/generic-clients/recorded-calls.ts';
import { typeErrors } from '../support/generic-clients/type-check.ts';
import { startApi } from '../support/start-api.ts';
import { issueToken } from '../support/token-cli.ts';

const USER_AGENT = 'hey-api-sdk/1.0';

interface CallerModule {
  connect(baseUrl: string, token: string, userAgent: string, fetch: typeof globalThis.fetch): unknown;
}

/**
 * A client as a user makes one with @hey-api/openapi-ts (its fetch client, types and SDK plugins,
 * default options), generated offline from each published document into a folder of its own. A
 * module calls every operation of the document through the SDK's functions, strict tsc checks the
 * generated client and the module, and each call is sent to a running server on an empty database.
 * The calls are the same plan the openapi-fetch test sends: one per operation, from the document.
 */
describe('a client made by @hey-api/openapi-ts from each published document', () => {
  let folder: string;

  beforeAll(async () => {
    folder = clientFolder('hey-api-client-');
    for (const version of DOCUMENTS) {
      await generateClient({
        input: documentPath(version),
        output: { path: join(folder, version) },
        plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
        logs: { level: 'silent' },
      });
      writeFileSync(join(folder, `${version}-calls.ts`), heyApiCaller(callPlan(documentOf(version)), version));
    }
    writeFileSync(join(folder, 'scenario.ts'), HEY_API_SCENARIO);
  }, 120_000);

  it('type-checks under strict TypeScript, the generated client and a call of every operation, none passing User-Agent', () => {
    const entries = [...DOCUMENTS.map((version) => join(folder, `${version}-calls.ts`)), join(folder, 'scenario.ts')];
    expect(typeErrors(entries)).toEqual([]);
  }, 180_000);

  it.each(DOCUMENTS)(
    'calls every operation of %s, each answered with a status the document lists for it',
    async (version) => {
      const report = await sendEveryOperation(version, folder, 'hey-api-sdk', (baseUrl, token, fetch, caller) =>
        (caller as CallerModule).connect(baseUrl, token, USER_AGENT, fetch),
      );
      expect(report.undocumented).toEqual([]);
      // Every operation of the document was reached, each by its own call, and nothing else.
      expect(report.misdirected).toEqual([]);
      expect(report.reached).toEqual(report.operations);
      expect(report.userAgents).toEqual([USER_AGENT]);
    },
    120_000,
  );

  it('creates, reads, lists with a filter, replaces, patches, searches, sets a setting and deletes, as a hand-written caller does', async () => {
    const server = await startApi();
    try {
      const token = issueToken(server.databaseUrl, 'hey-api-sdk');
      const { connect } = (await import(pathToFileURL(join(folder, 'v1-calls.ts')).href)) as CallerModule;
      const { scenario } = (await import(pathToFileURL(join(folder, 'scenario.ts')).href)) as {
        scenario: (client: unknown) => Promise<Record<string, unknown>>;
      };
      const { fetch: recording, calls } = recordingFetch(documentOf('v1'));
      const answers = await scenario(connect(server.url, token, USER_AGENT, recording));
      expect(answers).toEqual({
        created: [201, 1],
        read: [200, 'harvest festival'],
        listed: [200, [2], 2],
        replaced: [200, 'autumn harvest'],
        patched: [200, 'harvest market'],
        found: [200, [expect.objectContaining({ trade_id: 1, trade_name: 'harvest market' })]],
        lang: [200, 'fr-FR'],
        removed: 204,
        gone: [404, 'resource_not_found'],
      });
      expect(new Set(calls.map((call) => call.userAgent))).toEqual(new Set([USER_AGENT]));
    } finally {
      await server.close();
    }
  }, 60_000);
});
