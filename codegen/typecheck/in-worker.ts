import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../lint/diagnostic.ts';

/**
 * Type-checks the definition files on a worker thread, so the check (the larger part of a lint of a
 * large project) runs while the main thread imports the definitions and runs the rules.
 */
export function typeCheckInWorker(root: string, files: readonly string[]): Promise<Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { workerData: { root, files: [...files] } });
    worker.once('message', (diagnostics: Diagnostic[]) => resolve(diagnostics));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the type check stopped with exit code ${code}`));
    });
  });
}
