import type { DatabaseSync } from 'node:sqlite';
import type { ZodObject } from 'zod';
import { ApiError, badRequest, locked, notFound } from '../errors/index.ts';
import { invalidInput, zodProblems } from '../resources/index.ts';
import { jobRepresentation, type Job } from './job.ts';
import { SqliteJobTable } from './sqlite-job-table.ts';

export interface JobTypeDefinition<Tools> {
  readonly payload: ZodObject;
  /** The collection a job of this type creates a resource of; its run() answers `{ identity }`. */
  readonly produces?: string;
  /** Queued only by the server itself (an asynchronous operation), never through the queue's PUT. */
  readonly internal?: boolean;
  readonly run: (payload: any, tools: Tools) => unknown;
}

export interface JobQueueOptions<Tools> {
  readonly db: DatabaseSync;
  /** The queue's name (its service path, `queued/jobs`). */
  readonly name: string;
  readonly types: Readonly<Record<string, JobTypeDefinition<Tools>>>;
  /** What each job's run() receives. */
  readonly tools: Tools;
  /** Jobs run at once in this process. Default 2; 0 accepts jobs but runs none here. */
  readonly concurrency?: number;
  /** How often idle workers look for queued jobs, in ms. Default 250. */
  readonly pollIntervalMs?: number;
  /** How long a running job's lease lasts before another process may take it over, in ms. Default 30 s. */
  readonly leaseMs?: number;
  /** Told when a job this process ran has finished (metrics count outcomes). Default: nothing. */
  readonly onFinished?: (job: { readonly type: string; readonly outcome: 'succeeded' | 'failed' }) => void;
}

/**
 * A persisted job queue with an in-process worker of bounded concurrency. Jobs survive restarts:
 * queued ones wait in the table; running ones whose process died are queued again once their lease
 * runs out. A job's run() that throws fails the job with an error entry, never the process.
 *
 * @example
 * const queue = new JobQueue({ db, name: 'queued/jobs', types: { reindex: { payload: z.object({}), run: () => 'done' } }, tools: {} });
 * queue.start();
 * const job = queue.enqueue({ type: 'reindex' });
 */
export class JobQueue<Tools = unknown> {
  readonly #table: SqliteJobTable;
  readonly #options: Required<Omit<JobQueueOptions<Tools>, 'db'>>;
  readonly #running = new Map<number, Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = true;

  constructor({ db, concurrency = 2, pollIntervalMs = 250, leaseMs = 30_000, onFinished = () => {}, ...rest }: JobQueueOptions<Tools>) {
    this.#table = new SqliteJobTable(db);
    this.#options = { concurrency, pollIntervalMs, leaseMs, onFinished, ...rest };
  }

  /** The queue's name (its service path). */
  get name(): string {
    return this.#options.name;
  }

  /** Jobs waiting and running in this queue, across every process sharing the store. */
  depth(): { queued: number; running: number } {
    return this.#table.depth(this.#options.name);
  }

  /** Validates `{ "type": "<declared type>", ...payload }` and queues it. 400 naming the field otherwise. */
  enqueue(body: unknown): Job {
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('invalid_body', 'a job is a JSON object with a type', { resource: this.#options.name });
    }
    const { type, ...payload } = body as Record<string, unknown>;
    const declared = Object.keys(this.#options.types).filter((name) => this.#options.types[name]?.internal !== true).sort();
    if (type === undefined) throw badRequest('missing_field', `type is required: one of ${declared.join(', ')}`, { field: 'type', resource: this.#options.name });
    const found = typeof type === 'string' && Object.hasOwn(this.#options.types, type) ? this.#options.types[type] : undefined;
    const definition = found?.internal === true ? undefined : found;
    if (definition === undefined) {
      throw badRequest('unknown_job_type', `"${String(type)}" is not a declared job type: one of ${declared.join(', ')}`, { field: 'type', resource: this.#options.name });
    }
    const parsed = definition.payload.safeParse(payload);
    if (!parsed.success) throw invalidInput(zodProblems(parsed.error, this.#options.name, payload));
    return this.#queue(type as string, parsed.data as Record<string, unknown>);
  }

  /** Queues a job of any type, internal ones included, with a payload the server built itself. */
  enqueueInternal(type: string, payload: Record<string, unknown>): Job {
    const definition = Object.hasOwn(this.#options.types, type) ? this.#options.types[type] : undefined;
    if (definition === undefined) throw new Error(`job type ${type} is not declared in ${this.#options.name}`);
    return this.#queue(type, definition.payload.parse(payload) as Record<string, unknown>);
  }

  #queue(type: string, payload: Record<string, unknown>): Job {
    const job = this.#table.insert(this.#options.name, type, payload);
    this.#wake();
    return job;
  }

  get(id: string | number): Job | undefined {
    const key = Number(id);
    return Number.isSafeInteger(key) && key > 0 ? this.#table.get(this.#options.name, key) : undefined;
  }

  /** Removes a queued or finished job; 423 while it runs, 404 when unknown. */
  remove(id: string | number): void {
    const key = Number(id);
    const unknown = () => notFound('job_not_found', `there is no job ${String(id)}`, { resource: this.#options.name, field: 'job_id' });
    if (!Number.isSafeInteger(key) || key <= 0) throw unknown();
    this.#table.removeIf(this.#options.name, key, (job) => {
      if (job === undefined) throw unknown();
      if (job.state === 'running') throw locked('job_running', `job ${key} is running; remove it once it has finished`, { resource: this.#options.name, field: 'job_id' });
    });
  }

  /**
   * The resource a finished job produced: its type declares `produces` and its result names the
   * identity. Undefined while it is queued or running, when it failed, or for a type that produces nothing.
   */
  producedResource(job: Job): { readonly collection: string; readonly identity: string | number } | undefined {
    const collection = Object.hasOwn(this.#options.types, job.type) ? this.#options.types[job.type]?.produces : undefined;
    if (collection === undefined || job.state !== 'succeeded') return undefined;
    const identity = (job.result as { identity?: unknown } | null | undefined)?.identity;
    return typeof identity === 'string' || typeof identity === 'number' ? { collection, identity } : undefined;
  }

  representation(job: Job, uri: string): Record<string, unknown> {
    return jobRepresentation(job, uri);
  }

  /** Starts the worker: requeues jobs whose process died, then polls for queued jobs. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    if (this.#options.concurrency === 0) return;
    this.#table.requeueExpired(this.#options.name, Date.now());
    this.#timer = setInterval(() => this.#tick(), this.#options.pollIntervalMs);
    this.#timer.unref();
    this.#wake();
  }

  /** Stops taking jobs and waits for the running ones, at most `timeoutMs` (their lease requeues the rest). */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.#running.values()]).then(() => undefined), deadline]);
  }

  /** Resolves when no job is running or queued in this process's view (for tests and shutdown). */
  async onIdle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()]);
  }

  #wake(): void {
    if (!this.#stopped && this.#options.concurrency > 0) setImmediate(() => this.#tick());
  }

  #tick(): void {
    if (this.#stopped) return;
    this.#table.requeueExpired(this.#options.name, Date.now());
    while (this.#running.size < this.#options.concurrency) {
      const job = this.#table.claim(this.#options.name, Date.now() + this.#options.leaseMs);
      if (job === undefined) return;
      const run = this.#run(job).finally(() => {
        this.#running.delete(job.job_id);
        this.#wake();
      });
      this.#running.set(job.job_id, run);
    }
  }

  async #run(job: Job): Promise<void> {
    const renew = setInterval(() => this.#table.renew(job.job_id, Date.now() + this.#options.leaseMs), Math.max(1000, this.#options.leaseMs / 3));
    renew.unref();
    try {
      const definition = this.#options.types[job.type];
      if (definition === undefined) throw new ApiError(500, 'unknown_job_type', `job type ${job.type} is no longer declared`);
      const result = await definition.run(job.payload, this.#options.tools);
      this.#table.finish(job.job_id, 'succeeded', result, undefined);
      this.#options.onFinished({ type: job.type, outcome: 'succeeded' });
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'job_failed';
      this.#table.finish(job.job_id, 'failed', undefined, { code, message: error instanceof Error ? error.message : String(error) });
      this.#options.onFinished({ type: job.type, outcome: 'failed' });
    } finally {
      clearInterval(renew);
    }
  }
}
