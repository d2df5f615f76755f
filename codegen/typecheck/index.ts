export { typeCheck, compilerOptions, type TypeCheck } from './type-check.ts';
export { typeCheckInWorker } from './in-worker.ts';
