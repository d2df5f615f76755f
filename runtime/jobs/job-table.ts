import type { Maybe, StoreTransaction } from '../storage/index.ts';
import type { Job, JobCaller, JobState } from './job.ts';

/** Which of a caller's jobs a list answers: those in one state, of one type (each optional), one page. */
export interface JobListQuery {
  readonly state?: JobState;
  readonly type?: string;
  readonly limit: number;
  readonly offset: number;
}

/**
 * Where jobs are kept: SqliteJobTable (answers at once) or PostgresJobTable (promises). A running job
 * holds a lease its worker renews; claiming is atomic, so two processes never run the same job.
 */
export interface JobTable {
  /** Queues a job; `caller` is who queued it (kept with the job: it runs as them), absent for the server's own. */
  insert(queue: string, type: string, payload: Record<string, unknown>, caller?: JobCaller): Maybe<Job>;
  /** Inserts a job inside a transaction of the resource store on the same database: kept or dropped with it. */
  insertWithin(
    tx: StoreTransaction,
    queue: string,
    type: string,
    payload: Record<string, unknown>,
    caller?: JobCaller,
  ): Maybe<Job>;
  get(queue: string, id: number): Maybe<Job | undefined>;
  /** The jobs of one owner (ownerKey of a caller) in a queue, oldest first, and how many there are in all. */
  list(queue: string, owner: string, query: JobListQuery): Maybe<{ jobs: Job[]; total: number }>;
  /** Takes the oldest queued job of a queue, if any, leasing it until `leaseUntil` (Unix ms). */
  claim(queue: string, leaseUntil: number): Maybe<Job | undefined>;
  renew(id: number, leaseUntil: number): Maybe<void>;
  finish(
    id: number,
    state: 'succeeded' | 'failed',
    result: unknown,
    error: { code: string; message: string } | undefined,
  ): Maybe<void>;
  /** Removes a job, deciding on its current state (`allowed` throws to refuse) in the same transaction. */
  removeIf(queue: string, id: number, allowed: (job: Job | undefined) => void): Maybe<void>;
  /** Jobs left running by a process that stopped renewing their lease go back to the queue. */
  requeueExpired(queue: string, now: number): Maybe<number>;
  /** Jobs waiting and running in a queue, across every process sharing the store. */
  depth(queue: string): Maybe<{ queued: number; running: number }>;
}

/** A job row as both engines store it: payload, result and error as JSON text. */
export interface JobRow {
  job_id: number | bigint;
  queue: string;
  type: string;
  payload: string;
  state: JobState;
  attempts: number;
  created_at: string;
  /** JSON of the JobCaller; NULL for the server's own jobs and rows stored before callers were kept. */
  caller?: string | null;
  started_at: string | null;
  finished_at: string | null;
  result: string | null;
  error: string | null;
}

export function toJob(row: JobRow): Job {
  return {
    job_id: Number(row.job_id),
    queue: row.queue,
    type: row.type,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    state: row.state,
    attempts: Number(row.attempts),
    created_at: row.created_at,
    ...(row.caller === null || row.caller === undefined ? {} : { caller: JSON.parse(row.caller) as JobCaller }),
    ...(row.started_at === null ? {} : { started_at: row.started_at }),
    ...(row.finished_at === null ? {} : { finished_at: row.finished_at }),
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as unknown }),
    ...(row.error === null ? {} : { error: JSON.parse(row.error) as { code: string; message: string } }),
  };
}

/**
 * The owner column's value for a caller: its client and user, which a job's caller must share with
 * whoever asks of the job (scopes may differ from one token to the next of the same client and user).
 * JSON, so no client or user name can make two callers' keys meet. NULL for no caller.
 */
export function ownerKey(caller: { readonly client: string; readonly user?: string } | undefined): string | null {
  return caller === undefined ? null : JSON.stringify([caller.client, caller.user ?? null]);
}

/** The caller and owner columns' values of a job being queued. */
export const callerColumns = (caller: JobCaller | undefined) =>
  [
    caller === undefined
      ? null
      : JSON.stringify({
          client: caller.client,
          ...(caller.user === undefined ? {} : { user: caller.user }),
          scopes: caller.scopes,
        }),
    ownerKey(caller),
  ] as const;

/** A job's result or error as the JSON text both tables store (NULL when absent). */
export const jsonOrNull = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** Counts by state (`SELECT state, count(*) ... GROUP BY state`) as a queue's depth. */
export function depthOf(rows: readonly { state: string; jobs: number | bigint }[]): {
  queued: number;
  running: number;
} {
  const depth = { queued: 0, running: 0 };
  for (const row of rows) if (row.state === 'queued' || row.state === 'running') depth[row.state] = Number(row.jobs);
  return depth;
}
