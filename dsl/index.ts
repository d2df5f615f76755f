export { STRING_LENGTHS } from './string-lengths.ts';
export {
  field,
  type FieldDeclaration,
  type FieldDefault,
  type FieldKind,
  type FieldOptions,
  type Fields,
  type LowercaseFieldNames,
  type OnDelete,
} from './fields.ts';
export { collection, type AsynchronousOperation, type CollectionDeclaration, type Operation } from './collection.ts';
export { aggregate, type AggregateDeclaration } from './aggregate.ts';
export {
  shape,
  type StoredRecord,
  type VersionDeclaration,
  type VersionDeclarations,
  type VersionShape,
} from './versions.ts';
export {
  service,
  searchService,
  jobQueue,
  job,
  openApiService,
  healthService,
  type CustomServiceDeclaration,
  type JobQueueDeclaration,
  type JobType,
  type OpenApiInfo,
  type OpenApiServiceDeclaration,
  type HealthServiceDeclaration,
  type SearchServiceDeclaration,
  type ServiceDeclaration,
  type ServiceMethod,
  type ServiceOperation,
  type ServiceRequest,
  type ServiceResponse,
} from './service.ts';
export {
  setting,
  type SettingCheck,
  type SettingCheckInput,
  type SettingDeclaration,
  type SettingRules,
} from './setting.ts';
export type { ResourceOperation, ResourceOperationRequest } from './resource-operation.ts';
export type { Caller, ServiceTools } from './service-tools.ts';
export type { ScopedMethod, ScopesByMethod } from './scopes.ts';
export { caller, type CallerValue, type RowAccess, type RowOperand, type RowRule } from './row-rules.ts';
export {
  RuleError,
  refuse,
  badRequest,
  forbidden,
  notFound,
  conflict,
  unprocessable,
  type RefusalOptions,
} from './rule-errors.ts';
export type {
  CollectionAccess,
  CollectionIdentifiers,
  CollectionName,
  CollectionRows,
  ComputedFields,
  DataAccess,
  DataAccessOptions,
  DataListQuery,
  DeclaredCollection,
  DeleteCheck,
  DeleteCheckInput,
  Effect,
  EffectInput,
  FieldValue,
  FieldsNamed,
  FieldsOfRow,
  Flow,
  IdentifierOf,
  ReadRow,
  StoredRow,
  StoredValues,
  WriteCheck,
  WriteCheckInput,
  WriteCheckResult,
  WriteEffects,
  WriteRules,
} from './rules.ts';
