import { defaultIdentifierName, type ResolvedCollection, type ResolvedModel } from '../model/index.ts';
import type { RouteDescriptor } from '../routes/index.ts';
import { ref } from './components.ts';
import { operationIds } from './naming.ts';
import { pascalOf } from '../emit/names.ts';
import {
  header,
  json,
  jsonSuccess,
  NOT_MODIFIED,
  noContent,
  pageSuccesses,
  type OperationSpec,
} from './operation-spec.ts';
import { representationName } from './representation-schemas.ts';
import type { JsonSchema } from './schema-of.ts';
import { createdByPut, queuedIfAsynchronous, withMinimalReturn } from './statuses.ts';
import { listQueryParameters } from './list-parameters.ts';
import { exampleOf } from './parameter-examples.ts';

const READ_HEADERS = [header('ResultFields'), header('ExpansionFields'), header('PrettyPrint')];
export const CONDITIONAL = [header('IfNoneMatch'), header('IfModifiedSince')];
export { READ_HEADERS };

/** The path parameter of an identifier, as strict as the server is: a positive integer, or a non-empty string. */
export function identifierParameter(
  name: string,
  type: 'integer' | 'string',
  assignedBy: 'server' | 'client' = 'server',
): JsonSchema {
  const schema =
    type === 'integer'
      ? { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }
      : assignedBy === 'client'
        ? { type: 'string', minLength: 1, maxLength: 64, pattern: CLIENT_STRING_IDENTIFIER }
        : { type: 'string', minLength: 1 };
  const form =
    type === 'integer'
      ? 'a whole number from 1'
      : assignedBy === 'client'
        ? '1 to 64 lowercase letters, digits and inner hyphens, chosen by the client'
        : 'a non-empty string';
  return {
    name,
    in: 'path',
    required: true,
    description: `The ${name}: ${form}; any other form gets 400 invalid_identifier.`,
    schema,
  };
}

/**
 * The identifiers a client may give a resource (runtime/resources/client-identifiers.ts refuses any
 * other at creation; test/e2e/statuses/put-creates.test.ts holds the two to the same answers), so
 * its URI follows the path rules: lowercase, hyphens.
 */
const CLIENT_STRING_IDENTIFIER = '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$';

/** Where operations find an identifier's parameter: one shared component per identifier name (`OrderId`). */
export const identifierRef = (name: string) => ref('parameters', pascalOf(name));

/** Every identifier parameter of the model, by component name: each collection's, and job_id when a job queue is declared. */
export function identifierParameters(model: ResolvedModel): Record<string, JsonSchema> {
  const entries = model.collections.map(
    (collection) =>
      [
        pascalOf(collection.identifier.name),
        identifierParameter(collection.identifier.name, collection.identifier.type, collection.identifier.assignedBy),
      ] as const,
  );
  const jobs = model.services.some((service) => service.handler === 'job-queue')
    ? [[pascalOf('job_id'), identifierParameter('job_id', 'integer')] as const]
    : [];
  return Object.fromEntries([...entries, ...jobs]);
}

/** The query parameters of a page of a list: `limit` up to the collection's maximum, and `offset`. */
export function pagingParameters(paging: { defaultLimit: number; maxLimit: number }): JsonSchema[] {
  return [
    {
      name: 'limit',
      in: 'query',
      description: `Page size (default ${paging.defaultLimit}, at most ${paging.maxLimit}).`,
      schema: { type: 'integer', minimum: 1, maximum: paging.maxLimit, default: paging.defaultLimit },
    },
    { name: 'offset', in: 'query', description: 'Items to skip.', schema: { type: 'integer', minimum: 0, default: 0 } },
  ];
}

/**
 * Collections by name, and the names some reference points at: asked for every route, so made once
 * per model (a project of 1,000 collections has 4,000 routes per version).
 */
interface Lookups {
  readonly byName: ReadonlyMap<string, ResolvedCollection>;
  /** The collections some reference restricts the delete of (409 while it refers). */
  readonly referred: ReadonlySet<string | undefined>;
  /**
   * The collections whose delete reaches rows with rules of their own: a reference that cascades to a
   * collection with a delete rule or effect, or sets null in one with an update rule or effect.
   */
  readonly ruledThroughReferrers: ReadonlySet<string | undefined>;
  /** By collection: what its delete does to the rows referring to it (`the visits referring to it through pet are deleted with it`). */
  readonly released: ReadonlyMap<string | undefined, readonly string[]>;
}
const LOOKUPS = new WeakMap<ResolvedModel, Lookups>();
function lookupsOf(model: ResolvedModel): Lookups {
  const known = LOOKUPS.get(model);
  if (known !== undefined) return known;
  const references = model.collections.flatMap((collection) =>
    // References and arrays of references (which always restrict: no onDelete).
    collection.fields.filter((field) => field.references !== undefined).map((field) => ({ collection, field })),
  );
  const referred = new Set(
    references.filter(({ field }) => field.onDelete === undefined).map(({ field }) => field.references),
  );
  const ruled = (collection: ResolvedCollection, operation: string) =>
    [...collection.ruledOperations, ...collection.effectOperations].includes(operation as never);
  const ruledThroughReferrers = new Set(
    references
      .filter(
        ({ collection, field }) =>
          (field.onDelete === 'cascade' && ruled(collection, 'delete')) ||
          (field.onDelete === 'set-null' && ruled(collection, 'update')),
      )
      .map(({ field }) => field.references),
  );
  const released = new Map<string | undefined, string[]>();
  for (const { collection, field } of references) {
    if (field.onDelete === undefined) continue;
    const effect = field.onDelete === 'cascade' ? 'deleted with it' : `left with no ${field.name}`;
    released.set(field.references, [
      ...(released.get(field.references) ?? []),
      `the ${collection.name} referring to it through ${field.name} are ${effect}`,
    ]);
  }
  const lookups: Lookups = {
    byName: new Map(model.collections.map((collection) => [collection.name, collection])),
    referred,
    ruledThroughReferrers,
    released,
  };
  LOOKUPS.set(model, lookups);
  return lookups;
}

/** `a trade`, `an order`: the article English puts before a word. */
export const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

/** The operation of a collection route: list, read, create, replace, update or delete. */
export function collectionOperation(
  route: RouteDescriptor & { handler: { kind: 'collection' } },
  model: ResolvedModel,
  version: string,
): OperationSpec {
  const { byName, referred, ruledThroughReferrers, released } = lookupsOf(model);
  const collection = byName.get(route.declaration)!;
  const { singular, identifier } = collection;
  const name = representationName(singular, version);
  const id = identifierRef(identifier.name);
  const writeHeaders = [header('ResultFields'), header('ExpansionFields'), header('PrettyPrint'), header('IfMatch')];
  const unique = collection.fields.some((field) => field.unique) ? ['409'] : [];
  const references = collection.fields.some((field) => field.references !== undefined) ? ['422'] : [];
  const referredTo = referred.has(collection.name) ? ['409'] : [];
  const operation = route.handler.operation;
  // A business rule or effect on this operation may refuse it: a conflict with other data (409) or a write that cannot be done (422).
  const ruled =
    [...collection.ruledOperations, ...collection.effectOperations].some((name) => name === operation) ||
    (operation === 'delete' && ruledThroughReferrers.has(collection.name))
      ? ['409', '422']
      : [];
  const spec = ((): OperationSpec => {
    const base = { tag: collection.name };
    switch (operation) {
      case 'list': {
        const listForm = route.path.endsWith('/(list)');
        const filters = listQueryParameters(collection, (plural) => {
          const referenced = byName.get(plural)?.identifier;
          return referenced === undefined
            ? '1'
            : String(exampleOf(identifierParameter(referenced.name, referenced.type, referenced.assignedBy)));
        });
        return {
          ...base,
          operationId: listForm ? operationIds.listForm(collection.name) : operationIds.list(collection.name),
          summary: listForm ? `List ${collection.name} (the /(list) form)` : `List ${collection.name}`,
          description: `A page of ${collection.name}, filtered and sorted by the query string; X-Total-Count and Link (which keeps the filters and the sort) carry the paging.${listForm ? ` The same as GET /${version}/${collection.name}.` : ''} Any other query parameter gets 400 unknown_parameter.`,
          parameters: [...READ_HEADERS, ...CONDITIONAL, ...pagingParameters(collection.paging), ...filters],
          successes: pageSuccesses(`A page of ${collection.name}.`, ref('schemas', name)),
          errors: [],
        };
      }
      case 'read':
        return {
          ...base,
          operationId: operationIds.read(singular),
          summary: `Read one ${singular}`,
          description: `One ${singular}, tagged with its version (ETag) and last change (Last-Modified).`,
          parameters: [...READ_HEADERS, ...CONDITIONAL, id],
          successes: [
            jsonSuccess('200', `The ${singular}.`, ref('schemas', name), 'ETag', 'E-Tag', 'Last-Modified'),
            NOT_MODIFIED,
          ],
          errors: ['404'],
        };
      case 'create':
        return {
          ...base,
          operationId: operationIds.create(singular),
          summary: `Create ${withArticle(singular)}`,
          description: `Creates ${withArticle(singular)}: every required field, no null (leave an optional field out instead).`,
          parameters: [header('PrettyPrint')],
          requestBody: { required: true, content: json(ref('schemas', `${name}Write`)) },
          successes: [jsonSuccess('201', 'Created.', ref('schemas', `${name}Created`), 'Location')],
          errors: [...unique, ...references, ...ruled],
        };
      case 'replace':
      case 'update':
        return {
          ...base,
          operationId: operation === 'replace' ? operationIds.replace(singular) : operationIds.update(singular),
          summary: `${operation === 'replace' ? 'Replace' : 'Update part of'} ${withArticle(singular)}`,
          description:
            operation === 'replace'
              ? `Replaces the whole ${singular}: optional fields left out are cleared; null is refused.`
              : `Changes only the fields sent; null clears an optional field.`,
          parameters: [...writeHeaders, id],
          requestBody: {
            required: true,
            content: json(ref('schemas', operation === 'replace' ? `${name}Write` : `${name}Patch`)),
          },
          successes: [
            jsonSuccess('200', `The ${singular} as it now is.`, ref('schemas', name), 'ETag', 'E-Tag', 'Last-Modified'),
            ...(operation === 'replace' && collection.createOnPut ? [createdByPut(name)] : []),
          ],
          // A PUT that creates answers 404 only where a row rule hides rows (then only a caller who sees
          // every row creates); a client-chosen identifier of the wrong form is 400.
          errors: [
            ...(operation === 'replace' && collection.createOnPut && collection.rows?.hidesRows !== true
              ? []
              : ['404']),
            '412',
            ...unique,
            ...references,
            ...ruled,
          ],
        };
      case 'delete':
        return {
          ...base,
          operationId: operationIds.delete(singular),
          summary: `Delete ${withArticle(singular)}`,
          description: `Deletes the ${singular}${referredTo.length > 0 ? ' (409 while other resources still refer to it)' : ''}.${(released.get(collection.name) ?? []).map((effect) => ` ${effect[0]!.toUpperCase()}${effect.slice(1)}.`).join('')}`,
          parameters: [header('IfMatch'), id],
          successes: [noContent('Deleted.')],
          errors: ['404', '412', ...referredTo, ...ruled],
        };
    }
  })();
  // An operation declared but not implemented answers 501 and nothing else of its own.
  if (collection.operations[operation] === 'not-implemented') return { ...spec, successes: [], errors: ['501'] };
  const written = operation === 'replace' || operation === 'update' ? withMinimalReturn(spec) : spec;
  return queuedIfAsynchronous(collection, operation, written);
}

/** What GET of an aggregate or a setting answers before its first write. */
function beforeFirstWrite(fields: readonly { readonly default?: unknown }[]): string {
  return fields.some((field) => field.default !== undefined) ? "its fields' declared defaults" : 'an empty object';
}

/** What PATCH of an aggregate or a setting does (runtime: alwaysPresentMode). */
const PARTIAL_WRITE =
  'Changes only the fields sent; null clears an optional field. Before the first write there is nothing to change: the body is then read as a whole value (required fields without a default must be sent; fields left out take their defaults).';

/** The read (GET), replace (PUT) or partial update (PATCH) of an aggregate, through its parent. */
export function aggregateOperation(
  route: RouteDescriptor & { handler: { kind: 'aggregate' } },
  model: ResolvedModel,
  version: string,
): OperationSpec {
  const aggregate = model.aggregates.find((candidate) => candidate.name === route.declaration)!;
  const parent: ResolvedCollection | undefined = lookupsOf(model).byName.get(aggregate.parent);
  const parentSingular = parent?.singular ?? aggregate.parent;
  const idName = parent?.identifier.name ?? defaultIdentifierName(aggregate.parent);
  const id = identifierRef(idName);
  const name = representationName(aggregate.name, version);
  if (route.handler.operation === 'read') {
    return {
      operationId: operationIds.aggregateRead(parentSingular, aggregate.name),
      tag: aggregate.name,
      summary: `Read the ${aggregate.name} of ${withArticle(parentSingular)}`,
      description: `Before its first write: ${beforeFirstWrite(aggregate.fields)}; 404 when the ${parentSingular} does not exist.`,
      parameters: [...READ_HEADERS, ...CONDITIONAL, id],
      successes: [
        jsonSuccess('200', `The ${aggregate.name}.`, ref('schemas', name), 'ETag', 'E-Tag', 'Last-Modified'),
        NOT_MODIFIED,
      ],
      errors: ['404'],
    };
  }
  const replace = route.handler.operation === 'replace';
  return withMinimalReturn({
    operationId: replace
      ? operationIds.aggregateReplace(parentSingular, aggregate.name)
      : operationIds.aggregateUpdate(parentSingular, aggregate.name),
    tag: aggregate.name,
    summary: `${replace ? 'Replace' : 'Update part of'} the ${aggregate.name} of ${withArticle(parentSingular)}`,
    description: replace ? `Replaces it whole: optional fields left out are cleared; null is refused.` : PARTIAL_WRITE,
    parameters: [header('ResultFields'), header('PrettyPrint'), header('IfMatch'), id],
    requestBody: { required: true, content: json(ref('schemas', `${name}${replace ? 'Write' : 'Patch'}`)) },
    successes: [
      jsonSuccess('200', `The ${aggregate.name} as it now is.`, ref('schemas', name), 'ETag', 'E-Tag', 'Last-Modified'),
    ],
    errors: [
      '404',
      '412',
      ...([...aggregate.ruledOperations, ...aggregate.effectOperations].includes('replace') ? ['409', '422'] : []),
    ],
  } satisfies OperationSpec);
}

/** The read (GET), replace (PUT) or partial update (PATCH) of the caller's own value of a setting. */
export function settingOperation(
  route: RouteDescriptor & { handler: { kind: 'setting' } },
  model: ResolvedModel,
  version: string,
): OperationSpec {
  const setting = model.settings.find((candidate) => candidate.name === route.declaration)!;
  const name = representationName(setting.name, version);
  if (route.handler.operation === 'read') {
    return {
      operationId: operationIds.settingRead(setting.name),
      tag: setting.name,
      summary: `Read the caller's ${setting.name}`,
      description: `The caller's own value (per user, or per client when the token acts for none); before the caller's first write: ${beforeFirstWrite(setting.fields)}.`,
      parameters: [...READ_HEADERS, ...CONDITIONAL],
      successes: [
        jsonSuccess('200', `The caller's ${setting.name}.`, ref('schemas', name), 'ETag', 'E-Tag'),
        NOT_MODIFIED,
      ],
      errors: [],
    };
  }
  const replace = route.handler.operation === 'replace';
  return withMinimalReturn({
    operationId: replace ? operationIds.settingReplace(setting.name) : operationIds.settingUpdate(setting.name),
    tag: setting.name,
    summary: replace ? `Set the caller's ${setting.name}` : `Update part of the caller's ${setting.name}`,
    description: replace
      ? `Answers the value as stored (canonical forms applied).`
      : `${PARTIAL_WRITE} Answers the value as stored (canonical forms applied).`,
    parameters: [header('ResultFields'), header('PrettyPrint'), header('IfMatch')],
    requestBody: { required: true, content: json(ref('schemas', `${name}${replace ? 'Write' : 'Patch'}`)) },
    successes: [jsonSuccess('200', `The caller's ${setting.name} as stored.`, ref('schemas', name), 'ETag', 'E-Tag')],
    // A check of the setting's own (its rules) may refuse the value as it would be stored: 422. It reads
    // no other data (a setting's check has none), so it has nothing to conflict with (no 409).
    errors: ['412', ...(setting.ruledOperations.includes(replace ? 'replace' : 'update') ? ['422' as const] : [])],
  });
}
