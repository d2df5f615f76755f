export { typeCheck, parseDiagnostics, type TypeChecker } from './type-check.ts';
export { nodeConditions, writeCheckConfig } from './check-config.ts';
