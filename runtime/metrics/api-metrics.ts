import { createRequire } from 'node:module';
import type { Counter, Histogram, Registry } from 'prom-client';

/**
 * prom-client, loaded when a server first creates its metrics: with metrics off (no METRICS_PORT)
 * the server never loads it, nor the OpenTelemetry API it pulls in (about 80 modules, 4 MB resident).
 */
const promClient = () => createRequire(import.meta.url)('prom-client') as typeof import('prom-client');

/** What the job-depth gauge reads when scraped: each queue's waiting and running jobs. */
export interface QueueDepthSource {
  readonly name: string;
  depth(): { queued: number; running: number } | Promise<{ queued: number; running: number }>;
}

/** The server's Prometheus metrics, in a registry of their own (several servers may share a process). */
export interface ApiMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'method' | 'route' | 'family' | 'status'>;
  readonly duration: Histogram<'method' | 'route' | 'family' | 'status'>;
  readonly rateLimitRefusals: Counter<'family'>;
  readonly jobsFinished: Counter<'queue' | 'type' | 'outcome'>;
  /** Lets the job-depth gauge read these queues when scraped. */
  watchQueues(queues: readonly QueueDepthSource[]): void;
}

/** Latency buckets, in seconds: a synchronous SQLite read is well under a millisecond. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Creates the metrics the server exposes (prom-client):
 * - `http_requests_total` and `http_request_duration_seconds` by method, route template, path
 *   family and status (the template, never the raw path, so the label set stays bounded);
 * - `rate_limit_refusals_total` by family;
 * - `job_queue_depth` by queue and state (queued, running), read from the store when scraped, so
 *   it counts every instance's jobs; `jobs_finished_total` by queue, type and outcome (this process's);
 * - the process and Node.js metrics of prom-client's collectDefaultMetrics (CPU, memory, event loop lag, GC...).
 */
export function createApiMetrics(): ApiMetrics {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = promClient();
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'family', 'status'] as const;
  let queues: readonly QueueDepthSource[] = [];
  new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs waiting (queued) and running, per queue, in the shared store.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      for (const queue of queues) {
        const { queued, running } = await queue.depth();
        this.set({ queue: queue.name, state: 'queued' }, queued);
        this.set({ queue: queue.name, state: 'running' }, running);
      }
    },
  });
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by method, route template, path family and status.',
      labelNames,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to its response being sent, in seconds.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Calls refused with 429 rate_limit_exceeded, by path family.',
      labelNames: ['family'],
      registers: [registry],
    }),
    jobsFinished: new Counter({
      name: 'jobs_finished_total',
      help: 'Jobs this process ran to the end, by queue, type and outcome.',
      labelNames: ['queue', 'type', 'outcome'],
      registers: [registry],
    }),
    watchQueues(watched) {
      queues = watched;
    },
  };
}
