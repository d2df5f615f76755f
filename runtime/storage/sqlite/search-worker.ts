import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { FtsSearcher, PastDeadline } from './fts-search.ts';
import type { SearchReply, SearchRequest, SearchThreadData } from './search-thread-messages.ts';

// A search thread (search-threads.ts starts it): its own read-only connection to the database file,
// one search at a time, each under its deadline. It never writes.

/**
 * The search thread's CPU priority on Linux. When the event loop and a search compete for one core,
 * the kernel gives the search about a quarter of it (nice 5 weighs 335 against nice 0's 1024).
 * search-beside bench, server pinned to one CPU that GET one saturates (RELIABILITY.md): at nice 0,
 * GET one's p99 was 150 ms; at nice 10 it was 6 ms, but the search, given a tenth of the core, came
 * close to its 2 s budget and on a busier machine ran past it (503); at nice 5, p99 stays well
 * under 50 ms and the search answers in under a second.
 */
const SEARCH_THREAD_NICE = 5;

const { path, busyTimeoutMs } = workerData as SearchThreadData;
yieldToTheEventLoop();
const db = new DatabaseSync(path, { readOnly: true, timeout: busyTimeoutMs });
const searcher = new FtsSearcher(db);

parentPort!.on('message', ({ id, query, deadline }: SearchRequest) => {
  let reply: SearchReply;
  try {
    reply =
      Date.now() > deadline ? { id, outcome: 'timed-out' } : { id, outcome: 'found', ...searcher.run(query, deadline) };
  } catch (error) {
    reply =
      error instanceof PastDeadline
        ? { id, outcome: 'timed-out' }
        : { id, outcome: 'failed', message: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});

/**
 * Linux: lowers this thread alone to SEARCH_THREAD_NICE, so the event loop's thread takes the CPU
 * first whenever it has a request to serve; a search uses what the other requests leave, and all of
 * an idle core. /proc/thread-self names this thread; setpriority() on a thread id changes that thread
 * only. Elsewhere the thread keeps the process's priority.
 */
function yieldToTheEventLoop(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, SEARCH_THREAD_NICE);
  } catch {
    // No /proc (macOS, Windows), or not allowed: the searches share the CPU as equals.
  }
}
