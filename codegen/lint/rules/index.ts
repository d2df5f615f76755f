import type { Rule } from './context.ts';
import {
  duplicatePath,
  nestingDepth,
  parentField,
  pathIdentifiers,
  pathSegmentCase,
  pluralCollection,
  reservedPath,
} from './path-rules.ts';
import { aggregateParent, propertyNameCase, unknownReference, versionNames } from './resource-rules.ts';
import { publishedDeclarationRemoved, publishedShapes } from './published-rules.ts';
import { reservedMemberName } from './reserved-names.ts';
import { putCreateIdentifier } from './identifier-rules.ts';
import { movedPath } from './moved-rules.ts';
import { asynchronousQueue, jobProduces } from './job-rules.ts';
import { invalidDefault } from './default-rules.ts';
import { malformedScope, rowRuleField, uniqueHiddenRows } from './access-rules.ts';
import { referenceVersion } from './reference-versions.ts';
import { computedField, readOnlyRequired, ruleUnknownCollection } from './business-rules.ts';
import { migrationRules } from './migration-rules.ts';
import { sortableField } from './sortable-rules.ts';
import { filterableField } from './filterable-rules.ts';
import { enumValues } from './enum-rules.ts';
import { indexedStringLength, searchDocumentLength } from './string-length-rules.ts';
import { objectDepthRule, objectReference } from './object-rules.ts';
import { publishedStringLengths } from './published-lengths.ts';
import { publishedEnumValues } from './published-enums.ts';
import { referenceHolder } from './reference-holder-rules.ts';
import { onDeleteArray, onDeleteSetNull } from './on-delete-rules.ts';

/** Every rule the linter runs on the model, in the order of the registry (rootCauses() runs before them). */
export const ALL_RULES: readonly Rule[] = [
  pathSegmentCase,
  pluralCollection,
  nestingDepth,
  parentField,
  pathIdentifiers,
  aggregateParent,
  propertyNameCase,
  reservedMemberName,
  invalidDefault,
  indexedStringLength,
  searchDocumentLength,
  unknownReference,
  referenceVersion,
  sortableField,
  filterableField,
  enumValues,
  objectDepthRule,
  objectReference,
  duplicatePath,
  reservedPath,
  versionNames,
  publishedShapes,
  publishedStringLengths,
  publishedEnumValues,
  referenceHolder,
  publishedDeclarationRemoved,
  putCreateIdentifier,
  movedPath,
  jobProduces,
  asynchronousQueue,
  malformedScope,
  rowRuleField,
  uniqueHiddenRows,
  readOnlyRequired,
  onDeleteSetNull,
  onDeleteArray,
  computedField,
  ruleUnknownCollection,
  migrationRules,
];

export type { Rule, RuleInput } from './context.ts';
