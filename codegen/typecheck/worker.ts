import { parentPort, workerData } from 'node:worker_threads';
import type ts from 'typescript';
import { typeCheck } from './type-check.ts';

/**
 * The worker side of typeCheckInWorker() (one check, then it ends) and of TypeCheckService (a check
 * per message, each program built from the previous one, so unchanged files are not parsed again).
 */
const { root, files, persistent } = workerData as { root: string; files: string[]; persistent: boolean };
if (!persistent) {
  parentPort!.postMessage(typeCheck(root, files).diagnostics);
} else {
  let previous: ts.Program | undefined;
  parentPort!.on('message', (request: { id: number; root: string; files: string[] }) => {
    const result = typeCheck(request.root, request.files, previous);
    previous = result.program;
    parentPort!.postMessage({ id: request.id, diagnostics: result.diagnostics });
  });
}
