export { typeCheck, compilerOptions, type TypeCheck } from './type-check.ts';
export { typeCheckInWorker, TypeCheckService, type TypeChecker } from './in-worker.ts';
