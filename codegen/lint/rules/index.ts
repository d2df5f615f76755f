import type { Rule } from './context.ts';
import { duplicatePath, nestingDepth, pathSegmentCase, pluralCollection, reservedPath } from './path-rules.ts';
import { aggregateParent, propertyNameCase, unknownReference, versionNames } from './resource-rules.ts';
import { publishedShapes } from './published-rules.ts';
import { putCreateIdentifier } from './identifier-rules.ts';
import { movedPath } from './moved-rules.ts';
import { asynchronousQueue, jobProduces } from './job-rules.ts';

/** Every rule the linter runs, in the order of the registry. */
export const ALL_RULES: readonly Rule[] = [
  pathSegmentCase,
  pluralCollection,
  nestingDepth,
  aggregateParent,
  propertyNameCase,
  unknownReference,
  duplicatePath,
  reservedPath,
  versionNames,
  publishedShapes,
  putCreateIdentifier,
  movedPath,
  jobProduces,
  asynchronousQueue,
];

export type { Rule, RuleInput } from './context.ts';
