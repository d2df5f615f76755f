import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FtsAnswer, FtsQuery } from './fts-search.ts';
import type { SearchReply, SearchRequest, SearchThreadData } from './search-thread-messages.ts';

/** A search past its deadline; the store answers it with 503 search_timeout. */
export class SearchTimedOut extends Error {
  constructor() {
    super('the search ran past its deadline');
    this.name = 'SearchTimedOut';
  }
}

/**
 * How long past a search's deadline the event loop waits for its thread before giving up on it. The
 * thread checks the deadline on every matching row; only work SQLite does before the first row (a
 * prefix matching a huge vocabulary) can outlast it. Then the thread is replaced.
 */
const STUCK_AFTER_MS = 250;

// The thread's entry beside this file: search-worker.ts from the sources, search-worker.js from dist/.
const WORKER_URL = new URL(`./search-worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);

interface Pending {
  readonly request: SearchRequest;
  readonly resolve: (answer: FtsAnswer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

let nextId = 1;

/** One search thread: started when first needed, replaced when it dies or is stuck. */
class SearchThread {
  readonly #data: SearchThreadData;
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | undefined;

  constructor(data: SearchThreadData) {
    this.#data = data;
  }

  /** Searches sent to this thread and not answered yet. */
  get load(): number {
    return this.#pending.size;
  }

  start(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(WORKER_URL, { workerData: this.#data });
    // An idle search thread never keeps the process alive.
    worker.unref();
    worker.on('message', (reply: SearchReply) => this.#settle(reply));
    worker.on('error', (error) => this.#fail(worker, error));
    worker.on('exit', (code) => this.#fail(worker, new Error(`the search thread exited with code ${code}`)));
    this.#worker = worker;
    return worker;
  }

  run(query: FtsQuery, deadline: number): Promise<FtsAnswer> {
    return new Promise((resolve, reject) => {
      const request: SearchRequest = { id: nextId++, query, deadline };
      const timer = setTimeout(() => this.#stuck(request.id), Math.max(0, deadline - Date.now()) + STUCK_AFTER_MS);
      timer.unref();
      this.#pending.set(request.id, { request, resolve, reject, timer });
      this.start().postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    for (const id of [...this.#pending.keys()])
      this.#take(id)!.reject(new Error('the store was closed during the search'));
    if (worker !== undefined) await worker.terminate();
  }

  #settle(reply: SearchReply): void {
    const pending = this.#take(reply.id);
    if (pending === undefined) return;
    if (reply.outcome === 'found') pending.resolve({ keys: reply.keys, total: reply.total });
    else if (reply.outcome === 'timed-out') pending.reject(new SearchTimedOut());
    else pending.reject(new Error(`search failed: ${reply.message}`));
  }

  /**
   * The thread has not answered well past a deadline: the request answers now, and the searches
   * queued behind it go to a new thread. The old one is terminated; V8 stops it when SQLite hands
   * control back to JavaScript.
   */
  #stuck(id: number): void {
    const pending = this.#take(id);
    if (pending === undefined) return;
    pending.reject(new SearchTimedOut());
    const stuck = this.#worker;
    this.#worker = undefined;
    if (stuck !== undefined) {
      stuck.removeAllListeners('exit');
      stuck.removeAllListeners('error');
      stuck.on('error', () => undefined);
      void stuck.terminate();
    }
    if (this.#pending.size > 0) {
      const worker = this.start();
      for (const queued of this.#pending.values()) worker.postMessage(queued.request);
    }
  }

  /** The thread failed or exited: every search it held fails (500), and the next search starts a new one. */
  #fail(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    for (const id of [...this.#pending.keys()]) this.#take(id)!.reject(error);
  }

  #take(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    clearTimeout(pending.timer);
    this.#pending.delete(id);
    return pending;
  }
}

/**
 * The threads SQLite searches run in, off the event loop: each holds its own read-only connection to
 * the database file, so a costly search delays no other request. A search goes to the thread with the
 * fewest searches waiting.
 */
export class SearchThreads {
  readonly #threads: SearchThread[];

  constructor(path: string, count: number, busyTimeoutMs = 5000) {
    this.#threads = Array.from({ length: count }, () => new SearchThread({ path, busyTimeoutMs }));
  }

  /** Starts every thread now, so the first search does not wait for one to open its connection. */
  start(): void {
    for (const thread of this.#threads) thread.start();
  }

  /** The query's answer; rejects with SearchTimedOut once `deadline` (epoch ms) has passed. */
  run(query: FtsQuery, deadline: number): Promise<FtsAnswer> {
    const thread = this.#threads.reduce((best, candidate) => (candidate.load < best.load ? candidate : best));
    return thread.run(query, deadline);
  }

  async close(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => thread.close()));
  }
}
