export { typeCheck, parseDiagnostics, type TypeChecker } from './type-check.ts';
export {
  checkContextFile,
  clearTypeCheckCache,
  GENERATED_TYPES_FILE,
  nodeConditions,
  typeCheckCache,
  writeCheckConfig,
} from './check-config.ts';
