import { DatabaseSync, type StatementSync } from 'node:sqlite';

/**
 * A read-only connection to a database file on which the reads made while handling requests that have
 * just arrived (SqliteResourceStore.handleArrival()) share one read transaction per turn of the event loop: the first of
 * them begins it, and it ends at the turn's end (setImmediate), or sooner through end().
 *
 * Why: in WAL mode each read transaction locks and unlocks a read mark of the WAL index, two fcntl(2)
 * calls, which were about 5% of a GET's CPU time in the benchmark (BENCHMARKS.md). A busy
 * server handles several requests per turn (one wakeup of the event loop hands over every socket that
 * is ready), and now they pay for one read transaction between them.
 *
 * What a read sees: every commit made before the snapshot began. Every request that shares it was
 * handed over by the same wakeup, so its bytes had arrived before the snapshot began, and every commit
 * a client saw before sending it (a 201 from another instance on the same file, the token command's
 * exit) is in it: each request still reads the database as it was at some moment between its arrival
 * and its answer. (One exception: a wakeup with 1,024 sockets ready or more, libuv's most per poll,
 * polls again before the snapshot ends, and the requests of that second poll share it too.) The store ends the snapshot
 * before each of its own write transactions, so a read after a write of this process sees it. Reads
 * made at any other time (in a timer, after a promise) cannot know when their request arrived, and run
 * in a read transaction of their own, as SQLite's autocommit does. A snapshot never outlasts the work
 * of one turn, so none holds back a checkpoint.
 */
export class TurnSnapshot {
  readonly #db: DatabaseSync;
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #rollback: StatementSync;
  #ending: NodeJS.Immediate | undefined;
  readonly #endAtTurnEnd = () => {
    this.#ending = undefined;
    this.#finish();
  };

  constructor(file: string, { busyTimeoutMs = 5000 }: { readonly busyTimeoutMs?: number } = {}) {
    // Read-only: a statement on this connection can never write, so nothing can join the snapshot
    // and turn it into a write transaction that would commit only at the turn's end.
    this.#db = new DatabaseSync(file, { readOnly: true, timeout: busyTimeoutMs });
    // A deferred BEGIN: the snapshot is taken by the turn's first read, not before.
    this.#begin = this.#db.prepare('BEGIN');
    this.#commit = this.#db.prepare('COMMIT');
    this.#rollback = this.#db.prepare('ROLLBACK');
  }

  /** The connection, to prepare statements on: run them only after enter(). */
  get connection(): DatabaseSync {
    return this.#db;
  }

  /** Puts the connection inside this turn's snapshot, begun now when the turn has none yet. */
  enter(): void {
    if (this.#ending !== undefined) return;
    // Never left in a transaction by #finish(), unless both its COMMIT and ROLLBACK failed.
    if (!this.#db.isTransaction) this.#begin.run();
    this.#ending = setImmediate(this.#endAtTurnEnd);
  }

  /** Ends the snapshot now, if one is open: the next read sees every commit made until then. */
  end(): void {
    if (this.#ending === undefined) return;
    clearImmediate(this.#ending);
    this.#ending = undefined;
    this.#finish();
  }

  close(): void {
    this.end();
    if (this.#db.isOpen) this.#db.close();
  }

  #finish(): void {
    if (!this.#db.isOpen || !this.#db.isTransaction) return;
    try {
      this.#commit.run();
    } catch {
      // Ending a read transaction writes nothing, so ROLLBACK ends it the same way if COMMIT could not.
      if (this.#db.isTransaction) this.#rollback.run();
    }
  }
}
