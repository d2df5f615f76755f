export { typeCheck, parseDiagnostics, type TypeChecker } from './type-check.ts';
export { clearTypeCheckCache, nodeConditions, typeCheckCache, writeCheckConfig } from './check-config.ts';
