import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../support/start-api.ts';
import { curlOf, sendRaw, type RawRequest, type RawResponse } from './support/raw-http.ts';
import { requestArbitrary } from './support/request-arbitraries.ts';

/**
 * The fuzz: requests of every shape against the generated server (in this process, so a
 * change to Object.prototype is seen). `npm test` sends FUZZ_RUNS (default 2,000);
 * `npm run test:reliability` sends 10,000. FUZZ_SEED replays a run; a failure prints its seed and
 * the one-line curl command of the smallest failing request.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED);
/** The only 5xx a server may answer on purpose: a declared missing implementation, and being unavailable. */
const DECLARED_5XX = new Set([501, 503]);
const CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

describe('fuzz: no request gets a 5xx it did not declare, every error has the one body, nothing reaches a prototype', () => {
  let api: TestApi;
  const statuses = new Map<number, number>();
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  beforeAll(async () => {
    // Limits that never bite: a 429 would hide what the handlers do with the request.
    api = await startApi({
      env: { RATE_LIMIT_RESOURCE: '1000000/1', RATE_LIMIT_SERVICE: '1000000/1', RATE_LIMIT_SETTING: '1000000/1' },
    });
    // Resources to find, so identifiers hit existing rows as well as missing ones.
    for (let index = 1; index <= 5; index += 1)
      await api.post('/v1/orders', { item: `fuzz ${index}`, quantity: index }).expect(201);
    await api.post('/v1/users', { user_name: 'fuzz-user' }).expect(201);
  });

  afterAll(async () => {
    console.log(
      `fuzz: ${RUNS} requests, seed ${SEED}; statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, times]) => `${status}×${times}`)
        .join(' ')}`,
    );
    await api.close();
  });

  it(`answers ${RUNS} fuzzed requests by the rules`, async () => {
    const token = api.headers.Authorization!.slice('Bearer '.length);
    await fc.assert(
      fc.asyncProperty(requestArbitrary(token), async (spec) => {
        const response = await sendRaw(api.url, spec);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problem = problemOf(spec, response);
        if (problem !== undefined) throw new Error(`${problem}\n  reproduce: ${curlOf(api.url, spec)}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: false },
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 600_000);
});

/** What is wrong with a response, or undefined when it follows the rules. */
function problemOf(spec: RawRequest, response: RawResponse): string | undefined {
  if (response.status >= 500 && !DECLARED_5XX.has(response.status))
    return `${spec.method} ${spec.path} answered ${response.status}`;
  if (response.status < 400 || spec.method === 'HEAD') return undefined;
  const type = response.headers['content-type'];
  if (type !== 'application/json;charset=UTF-8')
    return `${spec.method} ${spec.path} answered ${response.status} with Content-Type ${String(type)}`;
  let body: unknown;
  try {
    const bytes = response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.body) : response.body;
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return `${spec.method} ${spec.path} answered ${response.status} with a body that is not JSON`;
  }
  const { message, errors } = body as { message?: unknown; errors?: Array<{ code?: unknown; message?: unknown }> };
  if (typeof message !== 'string' || !Array.isArray(errors) || errors.length === 0)
    return `${spec.method} ${spec.path} answered ${response.status} without the error body`;
  for (const entry of errors) {
    if (typeof entry.code !== 'string' || !CODE.test(entry.code) || typeof entry.message !== 'string')
      return `${spec.method} ${spec.path} answered ${response.status} with a malformed error entry ${JSON.stringify(entry)}`;
  }
  return undefined;
}
