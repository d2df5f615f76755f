import autocannon, { type Result } from 'autocannon';
import { ENDPOINTS, requestFor } from './endpoints.ts';
import { loadOnce, type RequestSpec } from './load.ts';
import { procStatusKib, RssSampler } from './memory.ts';
import { expectStatus } from './raw-request.ts';
import { ENDPOINTS as ENDPOINT_IDS } from './options.ts';
import type { ServerProcess } from './server-process.ts';

/** What a load left behind: every status received, and the requests that got no answer at all. */
export interface LoadOutcome {
  readonly responses: number;
  readonly statuses: Readonly<Record<string, number>>;
  /** Errors and timeouts: a request with no HTTP answer (a refused or reset connection). */
  readonly failures: number;
  /** Responses whose status was not the one their request expects. */
  readonly unexpected: number;
}

/** A server's resident set around a load: before it, its peak during it, and a while after it. */
export interface MemoryProfile {
  readonly idleKib: number | undefined;
  readonly peakKib: number | undefined;
  readonly afterKib: number | undefined;
  /** Whether the process was still running when the profile ended. */
  readonly alive: boolean;
  readonly outcome: LoadOutcome;
}

export interface ProfileTiming {
  /** Quiet time before the idle reading (after start-up and seeding). */
  readonly settleMs: number;
  /** Quiet time after the load before the last reading. */
  readonly afterMs: number;
}

/** The ETag a server gives /v1/orders/1, asked the way every server sends one (the peers only to a revalidating request). */
export async function revalidationTag(
  server: Pick<ServerProcess, 'url' | 'name'>,
  headers: Readonly<Record<string, string>>,
): Promise<string> {
  const response = await expectStatus(
    server.url,
    { method: 'GET', path: ENDPOINTS['get-one'].path, headers: { ...headers, 'If-None-Match': '"none"' } },
    200,
  );
  const tag = response.header('ETag');
  if (tag === undefined) throw new Error(`${server.name} sent no ETag`);
  return tag;
}

/** The request path's four requests without compression (GET one, a list of 20, a 304, a POST), for one server. */
export function requestPathRequests(headers: Readonly<Record<string, string>>, etag: string): RequestSpec[] {
  return ENDPOINT_IDS.map((id) => requestFor(ENDPOINTS[id], headers, etag));
}

/** Each request in turn, `secondsEach` seconds of it over `connections` keep-alive connections. */
export async function loadInTurn(
  url: string,
  requests: readonly RequestSpec[],
  { connections, secondsEach }: { connections: number; secondsEach: number },
): Promise<LoadOutcome> {
  const outcomes: LoadOutcome[] = [];
  for (const request of requests) {
    const measured = await loadOnce(url, request, { connections, durationSeconds: secondsEach });
    const answered = Object.values(measured.statuses).reduce((sum, count) => sum + count, 0);
    const wrong = answered - (measured.statuses[String(request.expectStatus)] ?? 0);
    // loadOnce counts errors and timeouts among its unexpected answers; kept apart here.
    outcomes.push({
      responses: measured.responses,
      statuses: measured.statuses,
      failures: measured.unexpected - wrong,
      unexpected: wrong,
    });
  }
  return combineOutcomes(outcomes);
}

/**
 * `amount` requests over `connections` connections, each connection sending the requests in turn:
 * a mix where reads, revalidations and writes interleave on the same server, as real traffic does.
 */
export async function mixedLoad(
  url: string,
  requests: readonly RequestSpec[],
  { connections, amount }: { connections: number; amount: number },
): Promise<LoadOutcome> {
  const expected = new Set(requests.map((request) => String(request.expectStatus)));
  const result = await new Promise<Result>((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        pipelining: 1,
        amount,
        timeout: 10,
        requests: requests.map((request) => ({
          method: request.method,
          path: request.path,
          headers: { ...request.headers },
          ...(request.body === undefined ? {} : { body: request.body }),
        })),
      },
      (error, done) => (error === null ? resolve(done) : reject(error)),
    );
  });
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
  const responses = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  const unexpected = Object.entries(statuses).reduce(
    (sum, [status, count]) => sum + (expected.has(status) ? 0 : count),
    0,
  );
  return { responses, statuses, failures: result.errors + result.timeouts, unexpected };
}

export function combineOutcomes(outcomes: readonly LoadOutcome[]): LoadOutcome {
  const statuses: Record<string, number> = {};
  for (const outcome of outcomes)
    for (const [status, count] of Object.entries(outcome.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const sum = (of: (outcome: LoadOutcome) => number) => outcomes.reduce((total, outcome) => total + of(outcome), 0);
  return {
    responses: sum((outcome) => outcome.responses),
    statuses,
    failures: sum((outcome) => outcome.failures),
    unexpected: sum((outcome) => outcome.unexpected),
  };
}

/** Responses with a 5xx status. */
export function serverErrors(outcome: LoadOutcome): number {
  return Object.entries(outcome.statuses).reduce(
    (sum, [status, count]) => sum + (status.startsWith('5') ? count : 0),
    0,
  );
}

/**
 * The resident set (VmRSS) of a server around `load`: after `settleMs` of quiet, the peak sampled
 * every 100 ms while the load runs, and again `afterMs` after it ended.
 */
export async function profileMemory(
  server: ServerProcess,
  load: () => Promise<LoadOutcome>,
  { settleMs, afterMs }: ProfileTiming,
): Promise<MemoryProfile> {
  await sleep(settleMs);
  const idleKib = procStatusKib(server.pid, 'VmRSS');
  const sampler = new RssSampler(server.pid);
  const outcome = await load();
  const peakKib = sampler.stop();
  await sleep(afterMs);
  const afterKib = procStatusKib(server.pid, 'VmRSS');
  return { idleKib, peakKib, afterKib, alive: afterKib !== undefined, outcome };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
