import type { ZodObject } from 'zod';
import { ApiError, badRequest, dependencyFaultError, locked, notFound } from '../errors/index.ts';
import { invalidInput, zodProblems } from '../resources/index.ts';
import { jobRepresentation, type Job, type JobCaller } from './job.ts';
import { ownerKey, type JobTable } from './job-table.ts';
import { parseJobListQuery } from './job-list-query.ts';
import { andThen, type Maybe, type StoreTransaction } from '../storage/index.ts';

/** The longest the worker waits between two looks for jobs while the store keeps failing, in ms. */
export const MAX_BACKOFF_MS = 30_000;

export interface JobTypeDefinition<Tools> {
  readonly payload: ZodObject;
  /** The collection a job of this type creates a resource of; its run() answers `{ identity }`. */
  readonly produces?: string;
  /** Queued only by the server itself (an asynchronous operation), never through the queue's PUT. */
  readonly internal?: boolean;
  /** The collection an asynchronous operation's job writes, as the caller who queued it. */
  readonly writes?: string;
  /** The work; `tools` act as `caller`, who queued the job (undefined: the server's own job). */
  readonly run: (payload: any, tools: Tools, caller: JobCaller | undefined) => unknown;
}

export interface JobQueueOptions<Tools> {
  /** Where jobs are kept: a SqliteJobTable or a PostgresJobTable (shared by every instance). */
  readonly table: JobTable;
  /** The queue's name (its service path, `queued/jobs`). */
  readonly name: string;
  readonly types: Readonly<Record<string, JobTypeDefinition<Tools>>>;
  /** What the run() of the server's own jobs receives (those no caller queued). */
  readonly tools: Tools;
  /** What the run() of a job a caller queued receives: tools that act as that caller. Default: `tools`. */
  readonly toolsFor?: (caller: JobCaller) => Tools;
  /** Jobs run at once in this process. Default 2; 0 accepts jobs but runs none here. */
  readonly concurrency?: number;
  /** How often idle workers look for queued jobs, in ms. Default 250. */
  readonly pollIntervalMs?: number;
  /** How long a running job's lease lasts before another process may take it over, in ms. Default 30 s. */
  readonly leaseMs?: number;
  /** Where the worker says that the store fails it, and that it answers again (once each per outage). Default: console.error. */
  readonly warn?: (message: string) => void;
  /** Told when a job this process ran has finished (metrics count outcomes). Default: nothing. */
  readonly onFinished?: (job: { readonly type: string; readonly outcome: 'succeeded' | 'failed' }) => void;
}

/**
 * A persisted job queue with an in-process worker of bounded concurrency. Jobs survive restarts:
 * queued ones wait in the table; running ones whose process died are queued again once their lease
 * runs out. A job's run() that throws fails the job with an error entry, never the process.
 *
 * @example
 * const queue = new JobQueue({ table: new SqliteJobTable(db), name: 'queued/jobs', types: { reindex: { payload: z.object({}), run: () => 'done' } }, tools: {} });
 * queue.start();
 * const job = await queue.enqueue({ type: 'reindex' });
 */
export class JobQueue<Tools = unknown> {
  readonly #table: JobTable;
  readonly #options: Required<Omit<JobQueueOptions<Tools>, 'table'>>;
  readonly #running = new Map<number, Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = true;
  /** A look for queued jobs is under way; another wake-up then asks for one more look after it. */
  #filling: Promise<void> | undefined;
  #fillAgain = false;
  /** The worker's last failure to reach the table, logged once until it works again. */
  #failing = false;
  /** While the store fails, the worker waits this long before looking again, doubling up to MAX_BACKOFF_MS. */
  #backoffMs = 0;
  /** No look for jobs before this time (Date.now() ms): the back-off after a failure. */
  #resumeAt = 0;

  constructor({
    table,
    concurrency = 2,
    pollIntervalMs = 250,
    leaseMs = 30_000,
    onFinished = () => {},
    warn = (message) => console.error(message),
    toolsFor = () => rest.tools,
    ...rest
  }: JobQueueOptions<Tools>) {
    this.#table = table;
    this.#options = { concurrency, pollIntervalMs, leaseMs, onFinished, warn, toolsFor, ...rest };
  }

  /** The queue's name (its service path). */
  get name(): string {
    return this.#options.name;
  }

  /** Jobs waiting and running in this queue, across every process sharing the store. */
  depth(): Maybe<{ queued: number; running: number }> {
    return this.#table.depth(this.#options.name);
  }

  /**
   * Validates `{ "type": "<declared type>", ...payload }` and queues it for `caller` (who sent it: the
   * job runs as them, and only they know of it). 400 naming the field otherwise.
   */
  enqueue(body: unknown, caller?: JobCaller): Maybe<Job> {
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('invalid_body', 'a job is a JSON object with a type', { resource: this.#options.name });
    }
    const { type, ...payload } = body as Record<string, unknown>;
    const declared = Object.keys(this.#options.types)
      .filter((name) => this.#options.types[name]?.internal !== true)
      .sort();
    if (type === undefined)
      throw badRequest('missing_field', `type is required: one of ${declared.join(', ')}`, {
        field: 'type',
        resource: this.#options.name,
      });
    const found =
      typeof type === 'string' && Object.hasOwn(this.#options.types, type) ? this.#options.types[type] : undefined;
    const definition = found?.internal === true ? undefined : found;
    if (definition === undefined) {
      throw badRequest(
        'unknown_job_type',
        `"${String(type)}" is not a declared job type: one of ${declared.join(', ')}`,
        { field: 'type', resource: this.#options.name },
      );
    }
    const parsed = definition.payload.safeParse(payload);
    if (!parsed.success) throw invalidInput(zodProblems(parsed.error, this.#options.name, payload));
    return this.#queue(type as string, parsed.data as Record<string, unknown>, caller);
  }

  /** Queues a job of any type, internal ones included, with a payload the server built itself, for `caller`. */
  enqueueInternal(type: string, payload: Record<string, unknown>, caller?: JobCaller): Maybe<Job> {
    const definition = Object.hasOwn(this.#options.types, type) ? this.#options.types[type] : undefined;
    if (definition === undefined) throw new Error(`job type ${type} is not declared in ${this.#options.name}`);
    return this.#queue(type, definition.payload.parse(payload) as Record<string, unknown>, caller);
  }

  /**
   * Queues a job of a declared type inside a write's transaction (a rule's effect): it runs only if
   * that transaction commits, as `caller`, whose write queued it (and only they know of it). The
   * payload is the server's own, so a bad one is a fault (500), not a 400.
   */
  enqueueWithin(tx: StoreTransaction, type: string, payload: Record<string, unknown>, caller?: JobCaller): Maybe<Job> {
    const definition = Object.hasOwn(this.#options.types, type) ? this.#options.types[type] : undefined;
    if (definition === undefined || definition.internal === true)
      throw new Error(`job type ${type} is not declared in ${this.#options.name}`);
    return andThen(
      this.#table.insertWithin(
        tx,
        this.#options.name,
        type,
        definition.payload.parse(payload) as Record<string, unknown>,
        caller,
      ),
      (job) => {
        // Woken now, the worker finds it once committed (SQLite commits before the wake-up's turn; elsewhere the next poll does).
        this.#wake();
        return job;
      },
    );
  }

  #queue(type: string, payload: Record<string, unknown>, caller: JobCaller | undefined): Maybe<Job> {
    return andThen(this.#table.insert(this.#options.name, type, payload, caller), (job) => {
      this.#wake();
      return job;
    });
  }

  get(id: string | number): Maybe<Job | undefined> {
    const key = Number(id);
    return Number.isSafeInteger(key) && key > 0 ? this.#table.get(this.#options.name, key) : undefined;
  }

  /**
   * A page of the jobs `caller` queued in this queue, oldest first, read from a list request's query
   * (`state`, `type`, `limit`, `offset`: parseJobListQuery), and how many match in all.
   */
  list(caller: JobCaller, query: string): Maybe<{ jobs: Job[]; total: number; limit: number; offset: number }> {
    const parsed = parseJobListQuery(query, Object.keys(this.#options.types).sort(), this.#options.name);
    return andThen(this.#table.list(this.#options.name, ownerKey(caller)!, parsed), (page) => ({
      ...page,
      limit: parsed.limit,
      offset: parsed.offset,
    }));
  }

  /** Removes a queued or finished job; 423 while it runs, 404 when unknown. */
  remove(id: string | number): Maybe<void> {
    const key = Number(id);
    const unknown = () =>
      notFound('job_not_found', `there is no job ${String(id)}`, { resource: this.#options.name, field: 'job_id' });
    if (!Number.isSafeInteger(key) || key <= 0) throw unknown();
    return this.#table.removeIf(this.#options.name, key, (job) => {
      if (job === undefined) throw unknown();
      if (job.state === 'running')
        throw locked('job_running', `job ${key} is running; remove it once it has finished`, {
          resource: this.#options.name,
          field: 'job_id',
        });
    });
  }

  /**
   * The resource a finished job produced: its type declares `produces` and its result names the
   * identity. Undefined while it is queued or running, when it failed, or for a type that produces nothing.
   */
  producedResource(job: Job): { readonly collection: string; readonly identity: string | number } | undefined {
    const collection = Object.hasOwn(this.#options.types, job.type)
      ? this.#options.types[job.type]?.produces
      : undefined;
    if (collection === undefined || job.state !== 'succeeded') return undefined;
    const identity = (job.result as { identity?: unknown } | null | undefined)?.identity;
    return typeof identity === 'string' || typeof identity === 'number' ? { collection, identity } : undefined;
  }

  /**
   * Who queued a job: the caller kept with it, or, for a job of an asynchronous operation stored
   * before callers were kept in their own column, the caller its payload carried. Undefined for the
   * server's own jobs (and other jobs stored before).
   */
  ownerOf(job: Job): { readonly client: string; readonly user?: string } | undefined {
    if (job.caller !== undefined) return job.caller;
    const writes = Object.hasOwn(this.#options.types, job.type) ? this.#options.types[job.type]?.writes : undefined;
    return writes === undefined ? undefined : (job.payload.caller as { client: string; user?: string } | undefined);
  }

  representation(job: Job, uri: string): Record<string, unknown> {
    return jobRepresentation(job, uri);
  }

  /** Starts the worker: requeues jobs whose process died, then polls for queued jobs. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    if (this.#options.concurrency === 0) return;
    this.#timer = setInterval(() => this.#tick(), this.#options.pollIntervalMs);
    this.#timer.unref();
    this.#wake();
  }

  /** Stops taking jobs and waits for the running ones, at most `timeoutMs` (their lease requeues the rest). */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([
      Promise.allSettled([this.#filling, ...this.#running.values()]).then(() => undefined),
      deadline,
    ]);
  }

  /** Resolves when no job is running or queued in this process's view (for tests and shutdown). */
  async onIdle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()]);
  }

  #wake(): void {
    if (!this.#stopped && this.#options.concurrency > 0) setImmediate(() => this.#tick());
  }

  #tick(): void {
    if (this.#stopped || Date.now() < this.#resumeAt) return;
    if (this.#filling !== undefined) {
      this.#fillAgain = true;
      return;
    }
    this.#filling = this.#fill()
      .then(
        () => {
          if (this.#failing) this.#options.warn(`job queue ${this.#options.name}: the job table answers again`);
          this.#failing = false;
          this.#backoffMs = 0;
        },
        (error: unknown) => this.#backOff(error),
      )
      .finally(() => {
        this.#filling = undefined;
        if (this.#fillAgain) {
          this.#fillAgain = false;
          this.#tick();
        }
      });
  }

  /**
   * The store failed the worker (unreachable, a full disk...): no look for jobs for a while, twice
   * as long after each failure in a row (from the poll interval up to MAX_BACKOFF_MS), and one log
   * line per outage. Nothing is kept per failure, so a long outage costs no memory.
   */
  #backOff(error: unknown): void {
    this.#backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(this.#options.pollIntervalMs, this.#backoffMs * 2));
    this.#resumeAt = Date.now() + this.#backoffMs;
    if (!this.#failing) {
      const reason = dependencyFaultError('store', error)?.message ?? (error as Error).message;
      this.#options.warn(
        `job queue ${this.#options.name}: cannot use the job table (${reason}); retrying, at most every ${MAX_BACKOFF_MS / 1000} s`,
      );
    }
    this.#failing = true;
  }

  /** Requeues jobs whose lease ran out, then claims queued jobs while this process has room for them. */
  async #fill(): Promise<void> {
    await this.#table.requeueExpired(this.#options.name, Date.now());
    while (!this.#stopped && this.#running.size < this.#options.concurrency) {
      const job = await this.#table.claim(this.#options.name, Date.now() + this.#options.leaseMs);
      if (job === undefined) return;
      // A job this process runs already cannot be claimed again, unless the claim was never stored:
      // looking again at once would claim it forever, without ever giving the event loop back.
      if (this.#running.has(job.job_id))
        throw new Error(`job ${job.job_id} was handed out again while it runs here: its claim was not stored`);
      const run = this.#run(job).finally(() => {
        this.#running.delete(job.job_id);
        this.#wake();
      });
      this.#running.set(job.job_id, run);
    }
  }

  async #run(job: Job): Promise<void> {
    // A renewal that fails is retried at the next one; the lease is three renewals long.
    const renew = setInterval(
      () =>
        void Promise.resolve(this.#table.renew(job.job_id, Date.now() + this.#options.leaseMs)).catch(() => undefined),
      Math.max(1000, this.#options.leaseMs / 3),
    );
    renew.unref();
    try {
      const definition = this.#options.types[job.type];
      if (definition === undefined)
        throw new ApiError(500, 'unknown_job_type', `job type ${job.type} is no longer declared`);
      const tools = job.caller === undefined ? this.#options.tools : this.#options.toolsFor(job.caller);
      const result = await definition.run(job.payload, tools, job.caller);
      await this.#table.finish(job.job_id, 'succeeded', result, undefined);
      this.#options.onFinished({ type: job.type, outcome: 'succeeded' });
    } catch (error) {
      // The store failed, not the job: it stays running until its lease runs out, then is queued
      // again and run once the store is back; the worker meanwhile backs off.
      if (dependencyFaultError('store', error) !== undefined) {
        this.#backOff(error);
        return;
      }
      // A refused write (a rule, a validation) ends the job with that error's entry, field included.
      const entry =
        error instanceof ApiError
          ? error.entries[0]!
          : { code: 'job_failed', message: error instanceof Error ? error.message : String(error) };
      await Promise.resolve(this.#table.finish(job.job_id, 'failed', undefined, entry)).catch(() => undefined);
      this.#options.onFinished({ type: job.type, outcome: 'failed' });
    } finally {
      clearInterval(renew);
    }
  }
}
