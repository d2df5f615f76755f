<<<<<<< HEAD
export { field, type FieldDeclaration, type FieldDefault, type FieldKind, type FieldOptions, type Fields, type LowercaseFieldNames } from './fields.ts';
export { STRING_LENGTHS } from './string-lengths.ts';
=======
export { field, type FieldDeclaration, type FieldDefault, type FieldKind, type FieldOptions, type Fields, type LowercaseFieldNames, type OnDelete } from './fields.ts';
>>>>>>> e61a7ac (A reference's onDelete: restrict (the default, 409 while referred to), cascade (the referring rows are deleted too, each through its own delete rule and referrers; a row referring back to one being deleted, or to itself, is deleted once) or set-null (the reference emptied, as an update with its rule), in the delete's transaction, every referring row whoever deletes. Lint on-delete-set-null (a required reference). OpenAPI: a delete says what it does to the rows referring to it and lists 409 only where a reference restricts it. Applied by the server, so no migration. Tests on both engines on a copy of the example (cascade, set-null, a chain and a self-reference: seen failing with the cycle guard removed); docs/dsl.md, docs/changing-your-data.md)
export { collection, type AsynchronousOperation, type CollectionDeclaration, type Operation } from './collection.ts';
export { aggregate, type AggregateDeclaration } from './aggregate.ts';
export { shape, type StoredRecord, type VersionDeclaration, type VersionDeclarations, type VersionShape } from './versions.ts';
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
export { setting, type SettingDeclaration } from './setting.ts';
export type { Caller, ServiceTools } from './service-tools.ts';
export type { ScopedMethod, ScopesByMethod } from './scopes.ts';
export { caller, type CallerValue, type RowAccess, type RowOperand, type RowRule } from './row-rules.ts';
export { RuleError, refuse, badRequest, forbidden, notFound, conflict, unprocessable, type RefusalOptions } from './rule-errors.ts';
export type {
  CollectionAccess,
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
  Flow,
  ReadRow,
  StoredRow,
  StoredValues,
  WriteCheck,
  WriteCheckInput,
  WriteCheckResult,
  WriteEffects,
  WriteRules,
} from './rules.ts';
