import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { inTransaction, isoNow, type StoreTransaction } from '../storage/index.ts';
import type { Job, JobCaller } from './job.ts';
import {
  callerColumns,
  depthOf,
  jsonOrNull,
  toJob,
  type JobListQuery,
  type JobRow,
  type JobTable,
} from './job-table.ts';

/**
 * The jobs table. A running job holds a lease that its worker renews; a job whose lease ran out
 * (its process died) is queued again. Claiming is one UPDATE ... RETURNING, so two processes on the
 * same file never run the same job. Every write runs in a transaction of its own (inTransaction):
 * in autocommit, node:sqlite's get() of a statement with RETURNING answers the row even when the
 * commit then fails (a full disk), which acknowledged jobs that were never stored and claimed the
 * same unstored job again and again.
 */
export class SqliteJobTable implements JobTable {
  readonly #insert: StatementSync;
  readonly #get: StatementSync;
  readonly #claim: StatementSync;
  readonly #renew: StatementSync;
  readonly #finish: StatementSync;
  readonly #remove: StatementSync;
  readonly #requeueExpired: StatementSync;
  readonly #anyQueued: StatementSync;
  readonly #anyExpired: StatementSync;
  readonly #countWaiting: StatementSync;
  readonly #ownJobs: StatementSync;
  readonly #countOwnJobs: StatementSync;
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS jobs (
      job_id INTEGER PRIMARY KEY AUTOINCREMENT,
      queue TEXT NOT NULL,
      type TEXT NOT NULL,
      payload TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      lease_until INTEGER,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      result TEXT,
      error TEXT,
      caller TEXT,
      owner TEXT
    );
    CREATE INDEX IF NOT EXISTS jobs__queue_state ON jobs (queue, state, job_id);`);
    addCallerColumns(db);
    this.#insert = db.prepare(
      `INSERT INTO jobs (queue, type, payload, state, created_at, caller, owner) VALUES (?, ?, ?, 'queued', ?, ?, ?) RETURNING *`,
    );
    // A NULL state or type is no filter: one statement for every combination, served by the owner's
    // index. Plain placeholders, each value bound where it appears (state and type twice): Node 22's
    // node:sqlite cannot bind numbered ones (storage/sqlite/plain-parameter.ts).
    const ownJobs = 'FROM jobs WHERE queue = ? AND owner = ? AND (? IS NULL OR state = ?) AND (? IS NULL OR type = ?)';
    // `+?`: a bare parameter as LIMIT makes SQLite compile the statement again at every run (storage/sqlite/page-bounds.ts).
    this.#ownJobs = db.prepare(`SELECT * ${ownJobs} ORDER BY job_id LIMIT +? OFFSET ?`);
    this.#countOwnJobs = db.prepare(`SELECT COUNT(*) AS total ${ownJobs}`);
    this.#get = db.prepare('SELECT * FROM jobs WHERE queue = ? AND job_id = ?');
    this.#claim =
      db.prepare(`UPDATE jobs SET state = 'running', attempts = attempts + 1, started_at = ?, lease_until = ?
      WHERE job_id = (SELECT job_id FROM jobs WHERE queue = ? AND state = 'queued' ORDER BY job_id LIMIT 1) RETURNING *`);
    this.#renew = db.prepare(`UPDATE jobs SET lease_until = ? WHERE job_id = ? AND state = 'running'`);
    this.#finish = db.prepare(
      `UPDATE jobs SET state = ?, finished_at = ?, result = ?, error = ?, lease_until = NULL WHERE job_id = ?`,
    );
    this.#remove = db.prepare('DELETE FROM jobs WHERE job_id = ?');
    this.#countWaiting = db.prepare(
      `SELECT state, COUNT(*) AS jobs FROM jobs WHERE queue = ? AND state IN ('queued', 'running') GROUP BY state`,
    );
    this.#requeueExpired = db.prepare(
      `UPDATE jobs SET state = 'queued', lease_until = NULL WHERE queue = ? AND state = 'running' AND lease_until < ?`,
    );
    // What a worker's poll reads first: a read takes no write lock, so a poll that finds nothing to do
    // (nearly every one) neither waits behind another process's write nor makes one.
    this.#anyQueued = db.prepare(`SELECT 1 FROM jobs WHERE queue = ? AND state = 'queued' LIMIT 1`);
    this.#anyExpired = db.prepare(
      `SELECT 1 FROM jobs WHERE queue = ? AND state = 'running' AND lease_until < ? LIMIT 1`,
    );
  }

  insert(queue: string, type: string, payload: Record<string, unknown>, caller?: JobCaller): Job {
    return toJob(
      inTransaction(this.#db, () =>
        this.#insert.get(queue, type, JSON.stringify(payload), isoNow(), ...callerColumns(caller)),
      ) as unknown as JobRow,
    );
  }

  /**
   * The store's transactions run on this same connection (openBackend), and node:sqlite runs one
   * thing at a time: an insert made while a transaction's work runs is part of that transaction.
   */
  insertWithin(
    _tx: StoreTransaction,
    queue: string,
    type: string,
    payload: Record<string, unknown>,
    caller?: JobCaller,
  ): Job {
    return this.insert(queue, type, payload, caller);
  }

  get(queue: string, id: number): Job | undefined {
    const row = this.#get.get(queue, id) as JobRow | undefined;
    return row === undefined ? undefined : toJob(row);
  }

  list(queue: string, owner: string, { state, type, limit, offset }: JobListQuery): { jobs: Job[]; total: number } {
    const filters = [queue, owner, state ?? null, state ?? null, type ?? null, type ?? null] as const;
    const rows = this.#ownJobs.all(...filters, limit, offset) as unknown as JobRow[];
    const { total } = this.#countOwnJobs.get(...filters) as { total: number };
    return { jobs: rows.map(toJob), total: Number(total) };
  }

  /** Takes the oldest queued job of a queue, if any, leasing it until `leaseUntil` (Unix ms). */
  claim(queue: string, leaseUntil: number): Job | undefined {
    if (this.#anyQueued.get(queue) === undefined) return undefined;
    const row = inTransaction(this.#db, () => this.#claim.get(isoNow(), leaseUntil, queue)) as JobRow | undefined;
    return row === undefined ? undefined : toJob(row);
  }

  renew(id: number, leaseUntil: number): void {
    inTransaction(this.#db, () => this.#renew.run(leaseUntil, id));
  }

  finish(
    id: number,
    state: 'succeeded' | 'failed',
    result: unknown,
    error: { code: string; message: string } | undefined,
  ): void {
    inTransaction(this.#db, () => this.#finish.run(state, isoNow(), jsonOrNull(result), jsonOrNull(error), id));
  }

  /** Removes a job, deciding on its current state in the same transaction. */
  removeIf(queue: string, id: number, allowed: (job: Job | undefined) => void): void {
    inTransaction(this.#db, () => {
      allowed(this.get(queue, id));
      this.#remove.run(id);
    });
  }

  /** How many jobs of a queue wait and run, in every process sharing the table. */
  depth(queue: string): { queued: number; running: number } {
    return depthOf(this.#countWaiting.all(queue) as { state: string; jobs: number }[]);
  }

  /** Jobs left running by a process that stopped renewing their lease go back to the queue. */
  requeueExpired(queue: string, now: number): number {
    if (this.#anyExpired.get(queue, now) === undefined) return 0;
    return Number(inTransaction(this.#db, () => this.#requeueExpired.run(queue, now)).changes);
  }
}

/**
 * Files made before jobs kept their caller get the caller and owner columns (NULL: such a job is the
 * server's own, docs/access-control.md) and the owner's index, in one IMMEDIATE transaction, so two
 * processes opening the file at once add them once.
 */
function addCallerColumns(db: DatabaseSync): void {
  const columns = () =>
    (db.prepare('PRAGMA table_info(jobs)').all() as { name: string }[]).map((column) => column.name);
  const add = () => {
    const present = columns();
    for (const column of ['caller', 'owner'])
      if (!present.includes(column)) db.exec(`ALTER TABLE jobs ADD COLUMN ${column} TEXT`);
    db.exec('CREATE INDEX IF NOT EXISTS jobs__queue_owner ON jobs (queue, owner, job_id)');
  };
  const indexed = () =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'jobs__queue_owner'").get();
  if (indexed() !== undefined) return;
  inTransaction(db, () => {
    if (indexed() === undefined) add();
  });
}
