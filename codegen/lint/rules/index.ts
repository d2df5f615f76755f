import type { Rule } from './context.ts';
import { duplicatePath, nestingDepth, pathSegmentCase, pluralCollection, reservedPath } from './path-rules.ts';
import { aggregateParent, propertyNameCase, unknownReference, versionNames } from './resource-rules.ts';
import { publishedDeclarationRemoved, publishedShapes } from './published-rules.ts';
import { reservedMemberName } from './reserved-names.ts';
import { putCreateIdentifier } from './identifier-rules.ts';
import { movedPath } from './moved-rules.ts';
import { asynchronousQueue, jobProduces } from './job-rules.ts';
import { invalidDefault } from './default-rules.ts';
import { malformedScope } from './access-rules.ts';
import { referenceVersion } from './reference-versions.ts';
import { computedField, readOnlyRequired, ruleUnknownCollection } from './business-rules.ts';
import { migrationRules } from './migration-rules.ts';
import { sortableField } from './sortable-rules.ts';
<<<<<<< HEAD
import { indexedStringLength } from './string-length-rules.ts';
import { publishedStringLengths } from './published-lengths.ts';
=======
import { enumValues } from './enum-rules.ts';
import { onDeleteSetNull } from './on-delete-rules.ts';
>>>>>>> e61a7ac (A reference's onDelete: restrict (the default, 409 while referred to), cascade (the referring rows are deleted too, each through its own delete rule and referrers; a row referring back to one being deleted, or to itself, is deleted once) or set-null (the reference emptied, as an update with its rule), in the delete's transaction, every referring row whoever deletes. Lint on-delete-set-null (a required reference). OpenAPI: a delete says what it does to the rows referring to it and lists 409 only where a reference restricts it. Applied by the server, so no migration. Tests on both engines on a copy of the example (cascade, set-null, a chain and a self-reference: seen failing with the cycle guard removed); docs/dsl.md, docs/changing-your-data.md)

/** Every rule the linter runs on the model, in the order of the registry (rootCauses() runs before them). */
export const ALL_RULES: readonly Rule[] = [
  pathSegmentCase,
  pluralCollection,
  nestingDepth,
  aggregateParent,
  propertyNameCase,
  reservedMemberName,
  invalidDefault,
  indexedStringLength,
  unknownReference,
  referenceVersion,
  sortableField,
  duplicatePath,
  reservedPath,
  versionNames,
  publishedShapes,
  publishedStringLengths,
  publishedDeclarationRemoved,
  putCreateIdentifier,
  movedPath,
  jobProduces,
  asynchronousQueue,
  malformedScope,
  readOnlyRequired,
  onDeleteSetNull,
  computedField,
  ruleUnknownCollection,
  migrationRules,
];

export type { Rule, RuleInput } from './context.ts';
