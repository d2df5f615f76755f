// autocannon ships no types; this declares the part of its programmatic API the bench uses.
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    /** Requests each connection sends in turn, round and round (a mixed load). */
    requests?: Array<{ method?: string; path?: string; headers?: Record<string, string>; body?: string }>;
    /** Requests to send in all, after which the run ends; duration is then ignored. */
    amount?: number;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    latency: Histogram;
    requests: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Instance {
    /** Every response, with its latency in ms (fractional, from process.hrtime). */
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this;
  }
  function autocannon(options: Options): Promise<Result>;
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
  export type { Options, Result, Histogram, Instance };
}
