import { describe, expect, it } from 'vitest';
import { JSON_MEDIA_TYPE } from '../../codegen/openapi/media-type.ts';
import { DOCUMENTS, documentOf, documentPath } from '../support/generic-clients/client-folder.ts';
import { resolve, scopesOf } from '../support/generic-clients/call-plan.ts';
import { DREDD_PACKAGE, installedDredd, runDredd } from '../support/dredd.ts';
import { startApi, type TestApi } from '../support/start-api.ts';
import { issueToken } from '../support/token-cli.ts';

type Json = Record<string, any>;

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] as const;

/**
 * The operations Dredd is not asked to check, each with why. Nothing else is left out: every other
 * operation's transaction must pass.
 */
const NOT_RUN: readonly { readonly method: string; readonly path: RegExp; readonly why: string }[] = [
  {
    method: 'head',
    path: /./,
    why:
      'Dredd 14 sends no HEAD at all: it always hands its HTTP library a request body (an empty Buffer), ' +
      'which that library refuses on a HEAD ("HTTP HEAD requests MUST NOT include a request body", ' +
      'before any byte is sent; apiaryio/dredd#2280)',
  },
  {
    method: 'delete',
    path: /^\/v\d+\/pets\/\{pet_id\}$/,
    why:
      'Dredd deletes in the order of the document, so pet 1 goes before the visits it created that refer ' +
      'to it, and the server answers 409 (still referred to), as it must',
  },
];

/**
 * Of an operation whose first documented success needs a state Dredd cannot hold, the documented
 * status the example request gets: a job Dredd queues has finished by the time it reads it, and a
 * finished job answers 303 to its result.
 */
const ANSWERED_INSTEAD: readonly { readonly method: string; readonly path: RegExp; readonly status: string }[] = [
  { method: 'get', path: /^\/services\/v\d+\/queued\/jobs\/\{job_id\}$/, status: '303' },
];

/**
 * Dredd's name of each transaction to run: of each operation not left out, the transaction of its
 * first documented success (its first 2xx; a moved path's 301, where it has none). Dredd's
 * OpenAPI 3 reader makes one transaction per documented status, each sent with the same request
 * (the examples), so only one of them can match what the server answers; the others are the
 * responses a different request gets (Dredd's own rule for Swagger 2 and API Blueprint is the
 * same: the first success).
 */
function transactionsToRun(document: Json): string[] {
  const names: string[] = [];
  for (const [path, item] of Object.entries(document.paths as Json))
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (operation === undefined || NOT_RUN.some((left) => left.method === method && left.path.test(path))) continue;
      const instead = ANSWERED_INSTEAD.find((rule) => rule.method === method && rule.path.test(path))?.status;
      const statuses = Object.keys(operation.responses as Json);
      const status =
        instead ?? statuses.find((code) => code.startsWith('2')) ?? statuses.find((code) => code.startsWith('3'))!;
      const response = resolve(document, (operation.responses as Json)[status] as Json);
      const media = response.content?.[JSON_MEDIA_TYPE] === undefined ? '' : ` > ${JSON_MEDIA_TYPE}`;
      names.push(`${path} > ${operation.summary as string} > ${status}${media}`);
    }
  return names;
}

/**
 * What Dredd cannot make itself: a resource whose client chooses its identifier (a PUT that can
 * answer 201, no POST) exists only once created, and Dredd's PUT sends the example If-Match (`*`:
 * any current version), so it never creates one. Each is created first, as its PUT's examples say.
 */
async function createClientNamedResources(api: TestApi, document: Json): Promise<void> {
  for (const [path, item] of Object.entries(document.paths as Json)) {
    const put = (item as Json).put as Json | undefined;
    if (put?.responses?.['201'] === undefined) continue;
    const uri = path.replace(/\{(\w+)\}/g, (_, name: string) => String(parameterExample(document, put, name)));
    const body = put.requestBody.content[JSON_MEDIA_TYPE].example as object;
    await api.put(uri, body).expect(201);
  }
}

function parameterExample(document: Json, operation: Json, name: string): unknown {
  const parameter = (operation.parameters as Json[])
    .map((node) => resolve(document, node))
    .find((found) => found.name === name);
  if (parameter === undefined) throw new Error(`no parameter ${name}`);
  return parameter.example;
}

const dredd = installedDredd();
const required = process.env.CI === 'true';
if (dredd === undefined && !required)
  console.warn(
    `SKIPPED "Dredd runs the documents": needs the npm package ${DREDD_PACKAGE}, which npm could not install here; CI=true makes it required`,
  );

/**
 * Dredd 14 runs each published document as shipped against a server on an empty database: every
 * operation's transaction passes but those NOT_RUN says why it leaves out.
 */
describe.skipIf(dredd === undefined && !required)('Dredd runs each published document as shipped', () => {
  it.each(DOCUMENTS)(
    '%s: every transaction run passes',
    async (version) => {
      if (dredd === undefined) throw new Error(`${DREDD_PACKAGE} is required (CI=true) but npm could not install it`);
      const document = documentOf(version);
      const api = await startApi({
        env: { RATE_LIMIT_RESOURCE: '1000000/60', RATE_LIMIT_SERVICE: '1000000/60', RATE_LIMIT_SETTING: '1000000/60' },
      });
      try {
        await createClientNamedResources(api, document);
        // The user the examples name (a note's owner is its caller), with every scope the document names.
        const token = issueToken(api.databaseUrl, 'dredd', { user: 'apples', scopes: scopesOf(document) });
        const only = transactionsToRun(document);
        const run = await runDredd(
          dredd,
          documentPath(version),
          api.url,
          { Authorization: `Bearer ${token}`, 'User-Agent': 'dredd/14.1.0' },
          only,
        );
        console.log(
          `Dredd, ${version}: ${run.passing} passing, ${run.failing} failing, ${run.errors} errors, ${run.skipped} skipped of ${run.total} transactions`,
        );
        expect(run.problems).toEqual([]);
        expect({ failing: run.failing, errors: run.errors, passing: run.passing }).toEqual({
          failing: 0,
          errors: 0,
          passing: only.length,
        });
      } finally {
        await api.close();
      }
    },
    180_000,
  );
});
