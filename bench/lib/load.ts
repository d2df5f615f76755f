import autocannon, { type Result } from 'autocannon';
import { percentileOfSorted } from './stats.ts';

/** One HTTP request as the load generator repeats it. */
export interface RequestSpec {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The only status a correct answer may have; any other makes the figures invalid. */
  readonly expectStatus: number;
}

export interface LoadSettings {
  readonly connections: number;
  readonly durationSeconds: number;
}

/** What one load run measured. */
export interface Measurement {
  readonly requestsPerSecond: number;
  /** Responses received during the run, whatever their status. */
  readonly responses: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses with another status than expected, errors and timeouts: the figures of a run with any are not comparable. */
  readonly unexpected: number;
  readonly statuses: Readonly<Record<string, number>>;
}

/**
 * Loads `baseUrl` with one request repeated over keep-alive connections for a fixed time (autocannon,
 * in this process; the server under load always runs in another one).
 */
export async function loadOnce(
  baseUrl: string,
  request: RequestSpec,
  { connections, durationSeconds }: LoadSettings,
): Promise<Measurement> {
  // autocannon's own histogram keeps whole milliseconds, too coarse for sub-millisecond answers:
  // record every response's fractional latency instead.
  const latencies: number[] = [];
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      {
        ...repeated(baseUrl, request),
        connections,
        duration: durationSeconds,
        timeout: 10,
      },
      (error, done) => (error === null ? resolve(done) : reject(error)),
    );
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => latencies.push(responseTimeMs));
  });
  const sorted = Float64Array.from(latencies).sort();
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
  const expected = statuses[String(request.expectStatus)] ?? 0;
  const answered = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  return {
    // Completed requests over the real elapsed time: steadier than the mean of a few one-second samples.
    requestsPerSecond: latencies.length / result.duration,
    responses: latencies.length,
    p50Ms: percentileOfSorted(sorted, 50),
    p99Ms: percentileOfSorted(sorted, 99),
    unexpected: answered - expected + result.errors + result.timeouts,
    statuses,
  };
}

/**
 * Sends `amount` requests over keep-alive connections, as fast as the server answers them, and
 * resolves with how many were answered with the expected status (a count, not a rate: for a server
 * too slowed down to load for a fixed time, such as one under callgrind).
 */
export async function loadCount(
  baseUrl: string,
  request: RequestSpec,
  { connections, amount }: { readonly connections: number; readonly amount: number },
): Promise<{ readonly expected: number; readonly unexpected: number }> {
  const result = await new Promise<Result>((resolve, reject) => {
    autocannon(
      {
        ...repeated(baseUrl, request),
        connections,
        amount,
        timeout: 120,
      },
      (error, done) => (error === null ? resolve(done) : reject(error)),
    );
  });
  const statuses = Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count] as const);
  const expected = statuses.find(([status]) => status === String(request.expectStatus))?.[1] ?? 0;
  const answered = statuses.reduce((sum, [, count]) => sum + count, 0);
  return { expected, unexpected: answered - expected + result.errors + result.timeouts };
}

/** autocannon's options for sending `request` to `baseUrl` over and over, one at a time per connection. */
function repeated(baseUrl: string, request: RequestSpec) {
  return {
    url: new URL(request.path, baseUrl).href,
    method: request.method,
    headers: { ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
    pipelining: 1,
  };
}
