import { parentPort, workerData } from 'node:worker_threads';
import { typeCheck } from './type-check.ts';

/** The worker side of typeCheckInWorker(): checks, posts the diagnostics, ends. */
const { root, files } = workerData as { root: string; files: string[] };
parentPort!.postMessage(typeCheck(root, files).diagnostics);
