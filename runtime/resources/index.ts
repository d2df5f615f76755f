export type {
  AggregateModel,
  Catalog,
  CollectionModel,
  FieldKind,
  FieldModel,
  OperationName,
  OperationState,
  SettingModel,
  VersionModel,
  RuleCheck,
  WriteRulesModel,
  ComputedFieldsModel,
} from './model.ts';
export type { JobsPort, ResourceContext } from './runtime-context.ts';
export type { PreconditionCheck } from './preconditions.ts';
export { collectionHandlers, type CollectionHandlers, type CollectionHandlerOptions } from './collection-handlers.ts';
export { aggregateHandlers, type AggregateHandlers } from './aggregate-handlers.ts';
export { representBody, representRow, representationNames, storedFields } from './represent.ts';
export { parseListQuery, PAGING_PARAMETERS } from './list-query.ts';
export { parseWriteInput, invalidInput, toStored, fromStored, clearedFields, type WriteMode } from './write-input.ts';
export { integerFromPath, keyFromPath, resourceNotFound } from './identifiers.ts';
export { zodProblems } from './zod-problems.ts';
export { alwaysPresentMode, declaredDefaults } from './declared-defaults.ts';
export { createResource } from './create-resource.ts';
export {
  collectionAccess,
  dataAccess,
  insertRow,
  removeRow,
  updateRow,
  type WriteInput,
  type WriteScope,
} from './row-writes.ts';
export { checkSettingWrite, hasWriteRules, withComputedFields, type WriteCaller } from './write-rules.ts';
export { checkIfMatch, representResource, validBody } from './koa-helpers.ts';
export {
  answerResource,
  collectionThrough,
  requestedPresentation,
  runOwnOperation,
  type OperationData,
} from './own-operations.ts';
