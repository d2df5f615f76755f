import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transactionStatementsOf, type TransactionStatements } from './open-database.ts';
import { assertWritable } from './database-file.ts';

/** One queued transaction: its work, and the promise waiting on its commit. */
interface Unit {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for one connection: the transactions asked for during one turn of the event loop run
 * together at its end (setImmediate), one after another, each in a savepoint of its own, under one
 * BEGIN IMMEDIATE … COMMIT. Every transaction's result is handed over only once that COMMIT has
 * returned, so nothing is acknowledged before it is durable (synchronous=FULL), and a transaction that
 * throws is rolled back to its savepoint alone.
 *
 * Why: with synchronous=FULL a commit costs an fsync and rewrites every page the transaction touched
 * (the row's, each index's, the search index's new segment), about 175 µs of CPU per created order
 * on the bench machine; ten concurrent POSTs committed together pay that once, not ten times
 * (bench/HISTORY.md, "Group commit"). A lone request still commits alone, one event-loop turn later.
 *
 * No transaction is left open between turns: the queued work runs inside flush(), synchronously, so
 * no other statement on the connection (tokens, settings, jobs, reads) can ever see or join an
 * uncommitted group.
 */
export class GroupCommit {
  readonly #db: DatabaseSync;
  readonly #transaction: TransactionStatements;
  readonly #savepoint: Record<'savepoint' | 'release' | 'rollbackTo', StatementSync>;
  readonly #beforeBegin: (() => void) | undefined;
  #queue: Unit[] = [];
  #scheduled: NodeJS.Immediate | undefined;

  /** `beforeBegin` runs before each group's BEGIN IMMEDIATE (the store ends its read snapshot there). */
  constructor(db: DatabaseSync, { beforeBegin }: { readonly beforeBegin?: () => void } = {}) {
    this.#db = db;
    this.#beforeBegin = beforeBegin;
    // The connection's own BEGIN IMMEDIATE, COMMIT and ROLLBACK, shared with inTransaction().
    this.#transaction = transactionStatementsOf(db);
    this.#savepoint = {
      savepoint: db.prepare('SAVEPOINT unit'),
      release: db.prepare('RELEASE unit'),
      rollbackTo: db.prepare('ROLLBACK TO unit'),
    };
  }

  /** Runs `work` in the group committed at the end of this event-loop turn; its result once committed. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Runs and commits every queued transaction now; the store's close() calls it so none is left behind. */
  flush(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    while (this.#queue.length > 0) {
      const units = this.#queue;
      this.#queue = [];
      this.#commit(units);
    }
  }

  #commit(units: readonly Unit[]): void {
    const { begin, commit, rollback } = this.#transaction;
    try {
      this.#beforeBegin?.();
      // Nothing is acknowledged into a file that was removed or replaced under the server.
      assertWritable(this.#db);
      begin.run();
    } catch (error) {
      // The write lock could not be had (another process kept it past the busy timeout), or the
      // file is no longer the one opened: none ran.
      for (const unit of units) unit.reject(error);
      return;
    }
    // A lone transaction needs no savepoint: on a throw the whole transaction rolls back, as before.
    const done = units.length === 1 ? this.#runAlone(units[0]!) : this.#runEach(units);
    if (done.length === 0) {
      if (this.#db.isTransaction) rollback.run();
      return;
    }
    try {
      commit.run();
    } catch (error) {
      if (this.#db.isTransaction) rollback.run();
      for (const { unit } of done) unit.reject(error);
      return;
    }
    for (const { unit, value } of done) unit.resolve(value);
  }

  #runAlone(unit: Unit): { unit: Unit; value: unknown }[] {
    try {
      return [{ unit, value: unit.work() }];
    } catch (error) {
      unit.reject(error);
      return [];
    }
  }

  #runEach(units: readonly Unit[]): { unit: Unit; value: unknown }[] {
    const { savepoint, release, rollbackTo } = this.#savepoint;
    const done: { unit: Unit; value: unknown }[] = [];
    for (const [at, unit] of units.entries()) {
      savepoint.run();
      try {
        const value = unit.work();
        release.run();
        done.push({ unit, value });
      } catch (error) {
        unit.reject(error);
        if (this.#db.isTransaction) {
          rollbackTo.run();
          release.run();
          continue;
        }
        // SQLite rolled the whole transaction back (an I/O error, a full disk): what ran before this
        // unit is gone with it, unacknowledged. The rest are queued again, to run in a group of their own.
        for (const earlier of done) earlier.unit.reject(error);
        this.#queue.unshift(...units.slice(at + 1));
        return [];
      }
    }
    return done;
  }
}
