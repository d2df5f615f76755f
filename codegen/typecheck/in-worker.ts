import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../lint/diagnostic.ts';

/** A type check of definition files: the diagnostics of `files` (absolute paths) of the project at `root`. */
export type TypeChecker = (root: string, files: readonly string[]) => Promise<Diagnostic[]>;

// worker.ts beside this file in the repository, worker.js in an installed package's dist/.
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);

/**
 * Type-checks the definition files on a worker thread, so the check (the larger part of a lint of a
 * large project) runs while the main thread imports the definitions and runs the rules.
 */
export const typeCheckInWorker: TypeChecker = (root, files) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { root, files: [...files], persistent: false } });
    worker.once('message', (diagnostics: Diagnostic[]) => resolve(diagnostics));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the type check stopped with exit code ${code}`));
    });
  });

/**
 * A worker thread that stays up between checks (`generate --watch`): TypeScript is loaded once and
 * each program is built from the previous one, so a check after a one-file change reparses that file
 * only. `close()` ends the worker.
 */
export class TypeCheckService {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: (diagnostics: Diagnostic[]) => void; reject: (error: Error) => void }>();
  #next = 0;

  constructor() {
    this.#worker = new Worker(WORKER, { workerData: { persistent: true } });
    this.#worker.on('message', ({ id, diagnostics }: { id: number; diagnostics: Diagnostic[] }) => {
      this.#waiting.get(id)?.resolve(diagnostics);
      this.#waiting.delete(id);
    });
    this.#worker.on('error', (error) => {
      for (const waiter of this.#waiting.values()) waiter.reject(error);
      this.#waiting.clear();
    });
  }

  readonly check: TypeChecker = (root, files) =>
    new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ id, root, files: [...files] });
    });

  close(): Promise<number> {
    return this.#worker.terminate();
  }
}
