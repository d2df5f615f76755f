import type {
  AggregateDeclaration,
  CollectionDeclaration,
  FieldDeclaration,
  Fields,
  RowRule,
  VersionDeclarations,
} from '@convapi/dsl';
import type { ServiceDeclaration, ServiceOperation, SettingDeclaration } from '@convapi/dsl';
import type { LoadedDefinition } from '../load/load-definitions.ts';
import { DEFAULTS, defaultIdentifierName, singularOf } from './defaults.ts';
import { boundStrings, indexedStringNames } from './string-bounds.ts';
import type {
  ResolvedAggregate,
  ResolvedCollection,
  ResolvedField,
  ResolvedMethod,
  ResolvedModel,
  ResolvedOperation,
  ResolvedOperationState,
  ResolvedRowAccess,
  ResolvedScopes,
  ResolvedRules,
  ResolvedService,
  ResolvedSetting,
  ResolvedVersion,
} from './types.ts';

const OPERATIONS: readonly ResolvedOperation[] = ['list', 'read', 'create', 'replace', 'update', 'delete'];

/** Applies every default to the loaded declarations. Sorted by name, so output is deterministic. */
export function resolveModel(definitions: readonly LoadedDefinition[]): ResolvedModel {
  const collections: ResolvedCollection[] = [];
  const aggregates: ResolvedAggregate[] = [];
  const services: ResolvedService[] = [];
  const settings: ResolvedSetting[] = [];
  for (const { file, declaration: declared, docComment } of definitions) {
    // A declaration's own description wins; otherwise the doc comment written above it.
    const declaration =
      declared.description === undefined && docComment !== undefined
        ? { ...declared, description: docComment }
        : declared;
    if (declaration.kind === 'collection') collections.push(resolveCollection(file, declaration));
    else if (declaration.kind === 'aggregate') aggregates.push(resolveAggregate(file, declaration));
    else if (declaration.kind === 'service') services.push(resolveService(file, declaration));
    else settings.push(resolveSetting(file, declaration));
  }
  const byName = <T extends { name: string; source: string }>(a: T, b: T) =>
    a.name.localeCompare(b.name) || a.source.localeCompare(b.source);
  const all = [...collections, ...aggregates, ...services, ...settings];
  const versions = [...new Set(all.flatMap((declaration) => declaration.versions.map((version) => version.name)))].sort(
    compareVersions,
  );
  return {
    collections: collections.sort(byName),
    aggregates: aggregates.sort(byName),
    services: services.sort(byName),
    settings: settings.sort(byName),
    versions,
  };
}

/** v2 after v1, v10 after v9. */
export function compareVersions(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1)) || a.localeCompare(b);
}

export function resolveFields(fields: Fields, access: readonly string[]): ResolvedField[] {
  return Object.entries(fields).map(([name, declaration]) => resolveField(name, declaration, [...access, name]));
}

function resolveField(name: string, declaration: FieldDeclaration, access: readonly string[]): ResolvedField {
  return {
    name,
    kind: declaration.kind,
    required: declaration.required ?? false,
    unique: declaration.unique ?? false,
    filterable: declaration.filterable ?? false,
    sortable: declaration.sortable ?? false,
    searchable: declaration.searchable ?? false,
    readOnly: declaration.readOnly ?? false,
    // An array of references refers to the collection its items do: what a delete's 409, row access and lint follow.
    ...((declaration.references ?? declaration.items?.references) === undefined
      ? {}
      : { references: declaration.references ?? declaration.items!.references }),
    ...(declaration.onDelete === 'cascade' || declaration.onDelete === 'set-null'
      ? { onDelete: declaration.onDelete }
      : {}),
    ...(declaration.description === undefined ? {} : { description: declaration.description }),
    ...(declaration.fields === undefined ? {} : { fields: resolveFields(declaration.fields, [...access, 'fields']) }),
    ...(declaration.values === undefined ? {} : { values: [...declaration.values] }),
    ...(declaration.uniqueItems === true ? { uniqueItems: true } : {}),
    ...(declaration.items === undefined
      ? {}
      : { items: resolveField('items', declaration.items, [...access, 'items']) }),
    ...(declaration.default === undefined ? {} : resolveDefault(declaration)),
    ...(declaration.renamedFrom === undefined ? {} : { renamedFrom: declaration.renamedFrom }),
    // Declared only here; boundStrings gives every string its bound once the indexed columns are known.
    // A maxLength that is not a number is the type check's to report: no rule reasons from it.
    ...(typeof declaration.maxLength !== 'number'
      ? {}
      : { stringLength: { max: declaration.maxLength, declared: true, indexed: false } }),
    access,
  };
}

/** The default as the field's schema reads it, or why it is not a value of the field. */
function resolveDefault(declaration: FieldDeclaration): Pick<ResolvedField, 'default' | 'invalidDefault'> {
  const declared = declaration.default!;
  if (declaration.kind === 'reference' || declaration.kind === 'object')
    return { default: declared, invalidDefault: `a ${declaration.kind} field takes no default` };
  const parsed = declaration.schema.safeParse(declared);
  if (parsed.success && ['string', 'number', 'boolean'].includes(typeof parsed.data))
    return { default: parsed.data as string | number | boolean };
  const problem = parsed.success
    ? `it reads as ${JSON.stringify(parsed.data)}`
    : parsed.error.issues.map((issue) => issue.message).join('; ');
  return {
    default: declared,
    invalidDefault: `${JSON.stringify(declared)} is not a valid ${declaration.kind}: ${problem}`,
  };
}

/** The declared scopes, per method, copied (a method with an empty list needs none and is left out). */
function resolveScopes(
  scopes: Readonly<Partial<Record<ResolvedMethod, readonly string[]>>> | undefined,
): ResolvedScopes {
  return Object.fromEntries(
    Object.entries(scopes ?? {})
      .filter(([, listed]) => listed !== undefined && listed.length > 0)
      .map(([method, listed]) => [method, [...listed!]]),
  );
}

/** Every field and scope the row rules name, each with its property path from the declaration. */
function resolveRowAccess(rows: NonNullable<CollectionDeclaration['rows']>): ResolvedRowAccess {
  const fields: { name: string; operand: unknown; access: string[] }[] = [];
  const scopes: { scope: string; access: string[] }[] = [];
  const visit = (rule: RowRule, access: string[]) => {
    if ('all' in rule) rule.all.forEach((part, index) => visit(part, [...access, 'all', String(index)]));
    else if ('any' in rule) rule.any.forEach((part, index) => visit(part, [...access, 'any', String(index)]));
    else if ('scope' in rule) scopes.push({ scope: rule.scope, access: [...access, 'scope'] });
    else
      fields.push({
        name: rule.field,
        operand: 'equals' in rule ? rule.equals : rule.notEquals,
        access: [...access, 'field'],
      });
  };
  if (rows.see !== undefined) visit(rows.see, ['rows', 'see']);
  if (rows.change !== undefined) visit(rows.change, ['rows', 'change']);
  return { hidesRows: rows.see !== undefined, fields, scopes };
}

function resolveVersions(versions: VersionDeclarations, storedFields: readonly ResolvedField[]): ResolvedVersion[] {
  const indexed = indexedStringNames(storedFields);
  return Object.entries(versions)
    .sort(([a], [b]) => compareVersions(a, b))
    .map(([name, version]) => {
      const access = ['versions', name];
      const shaped = version.shape !== undefined;
      return {
        name,
        fields: shaped
          ? boundStrings(resolveFields(version.shape!.fields, [...access, 'shape', 'fields']), indexed)
          : storedFields,
        shaped,
        ...(version.deprecated === undefined ? {} : { deprecated: { ...version.deprecated } }),
        movedFrom: [...(version.movedFrom ?? [])],
        access,
      };
    });
}

function resolveCollection(source: string, declaration: CollectionDeclaration): ResolvedCollection {
  const singular = singularOf(declaration.name);
  const rows = declaration.rows === undefined ? undefined : resolveRowAccess(declaration.rows);
  // A column a row rule compares is indexed (model/tables.ts), and its strings bounded as such.
  const fields = boundStrings(
    resolveFields(declaration.fields, ['fields']),
    new Set(rows?.fields.map((field) => field.name)),
  );
  const operations = Object.fromEntries(
    OPERATIONS.map((operation): [ResolvedOperation, ResolvedOperationState] => {
      const declared = declaration.operations?.[operation];
      return [
        operation,
        declared === undefined || declared === true ? 'served' : declared === false ? 'absent' : 'not-implemented',
      ];
    }),
  ) as Record<ResolvedOperation, ResolvedOperationState>;
  return {
    kind: 'collection',
    source,
    name: declaration.name,
    singular,
    identifier: {
      name: declaration.identifier?.name ?? defaultIdentifierName(declaration.name),
      type: declaration.identifier?.type ?? DEFAULTS.identifierType,
      assignedBy: declaration.identifier?.assignedBy ?? DEFAULTS.identifierAssignedBy,
    },
    createOnPut: declaration.createOnPut ?? false,
    asynchronous:
      declaration.asynchronous === undefined
        ? undefined
        : { queue: declaration.asynchronous.queue, operations: [...declaration.asynchronous.operations] },
    fields,
    versions: resolveVersions(declaration.versions, fields),
    operations,
    paging: {
      defaultLimit: declaration.paging?.defaultLimit ?? DEFAULTS.paging.defaultLimit,
      maxLimit: declaration.paging?.maxLimit ?? DEFAULTS.paging.maxLimit,
    },
    ...(rows === undefined ? {} : { rows }),
    ...(declaration.parent === undefined ? {} : { parent: resolveParent(declaration.parent, fields) }),
    scopes: resolveScopes(declaration.scopes),
    ...resolveRules(declaration),
    ownOperations: (declaration.ownOperations ?? []).map((operation, index) => ({
      method: operation.method,
      path: operation.path,
      index,
      ...(operation.description === undefined ? {} : { description: operation.description }),
      ...(operation.scopes === undefined || operation.scopes.length === 0 ? {} : { scopes: [...operation.scopes] }),
      ...ownOperationFacts(operation),
      ...(operation.answers === undefined ? { answers: declaration.name } : {}),
    })),
    ...(declaration.renamedFrom === undefined ? {} : { renamedFrom: declaration.renamedFrom }),
    ...(declaration.description === undefined ? {} : { description: declaration.description }),
  };
}

/** The parent field and the collection it refers to (none when it names no reference field). */
function resolveParent(field: string, fields: readonly ResolvedField[]): NonNullable<ResolvedCollection['parent']> {
  const references = fields.find((candidate) => candidate.name === field && candidate.kind === 'reference')?.references;
  return { field, ...(references === undefined ? {} : { collection: references }) };
}

const WRITE_OPERATIONS = ['create', 'replace', 'update', 'delete'] as const;

function resolveRules(declaration: CollectionDeclaration | AggregateDeclaration): ResolvedRules {
  const ruledOperations = WRITE_OPERATIONS.filter((operation) => declaration.rules?.[operation] !== undefined);
  const effectOperations = WRITE_OPERATIONS.filter((operation) => declaration.effects?.[operation] !== undefined);
  const named = (at: 'rules' | 'effects', operations: readonly (typeof WRITE_OPERATIONS)[number][]) =>
    operations.flatMap((operation) =>
      collectionsNamedIn(String(declaration[at]![operation]!)).map((name) => ({ at, operation, name })),
    );
  return {
    ruledOperations,
    effectOperations,
    computed: Object.keys(declaration.compute ?? {}),
    namedCollections: [...named('rules', ruledOperations), ...named('effects', effectOperations)],
  };
}

/** The collections a check's source names by string: `.of('rooms')`, `.of('rooms', { rows: 'all' })` (a declaration passed to of() is checked by TypeScript). */
function collectionsNamedIn(source: string): string[] {
  return [...new Set([...source.matchAll(/\.of\(\s*(['"`])([^'"`]+)\1\s*[,)]/g)].map((match) => match[2]!))];
}

function resolveAggregate(source: string, declaration: AggregateDeclaration): ResolvedAggregate {
  const fields = boundStrings(resolveFields(declaration.fields, ['fields']));
  return {
    kind: 'aggregate',
    source,
    name: declaration.name,
    parent: declaration.parent,
    fields,
    versions: resolveVersions(declaration.versions, fields),
    scopes: resolveScopes(declaration.scopes),
    ...resolveRules(declaration),
    ...(declaration.description === undefined ? {} : { description: declaration.description }),
  };
}

function resolveService(source: string, declaration: ServiceDeclaration): ResolvedService {
  const operations =
    declaration.handler === 'custom'
      ? declaration.operations.map((operation, index) => ({
          method: operation.method,
          path: operation.path ?? '',
          index,
          ...(operation.description === undefined ? {} : { description: operation.description }),
          ...(operation.scopes === undefined || operation.scopes.length === 0 ? {} : { scopes: [...operation.scopes] }),
          ...ownOperationFacts(operation),
        }))
      : declaration.handler === 'health'
        ? [
            {
              method: 'GET' as const,
              path: '',
              index: 0,
              description: 'Liveness: 200 while the process serves requests.',
              open: true as const,
            },
            {
              method: 'GET' as const,
              path: 'ready',
              index: 1,
              description: 'Readiness: 200 when the store and every other dependency answer, else 503.',
              open: true as const,
            },
          ]
        : declaration.handler === 'job-queue'
          ? [
              { method: 'PUT' as const, path: '', index: 0, description: 'Adds a job to the queue.' },
              { method: 'GET' as const, path: ':job_id', index: 1, description: 'The state of one job.' },
              {
                method: 'DELETE' as const,
                path: ':job_id',
                index: 2,
                description: 'Removes a queued or finished job.',
              },
              { method: 'GET' as const, path: '', index: 3, description: "Lists the caller's own jobs." },
            ]
          : [{ method: 'GET' as const, path: '', index: 0 }];
  return {
    kind: 'service',
    source,
    name: declaration.name,
    handler: declaration.handler,
    operations,
    jobTypes: declaration.handler === 'job-queue' ? Object.keys(declaration.jobs).sort() : [],
    jobProduces:
      declaration.handler === 'job-queue'
        ? Object.fromEntries(
            Object.entries(declaration.jobs)
              .flatMap(([type, job]) => (job.produces === undefined ? [] : [[type, job.produces]]))
              .sort(),
          )
        : {},
    versions: resolveVersions(declaration.versions, []),
    scopes: resolveScopes(declaration.scopes),
    ...(declaration.description === undefined ? {} : { description: declaration.description }),
  };
}

/**
 * What the documents say of a hand-written operation beyond its schemas: the collection whose
 * resource it answers, and whether it works on data (a generator function, run in one transaction).
 */
export function ownOperationFacts(operation: {
  readonly answers?: ServiceOperation['answers'];
  readonly handle: unknown;
}): { answers?: string; onData?: true } {
  const answers = typeof operation.answers === 'string' ? operation.answers : operation.answers?.name;
  return {
    ...(answers === undefined ? {} : { answers }),
    ...(Object.prototype.toString.call(operation.handle) === '[object GeneratorFunction]' ? { onData: true } : {}),
  };
}

function resolveSetting(source: string, declaration: SettingDeclaration): ResolvedSetting {
  const fields = boundStrings(resolveFields(declaration.fields, ['fields']));
  return {
    kind: 'setting',
    source,
    name: declaration.name,
    fields,
    ruledOperations: (['replace', 'update'] as const).filter(
      (operation) => declaration.rules?.[operation] !== undefined,
    ),
    versions: resolveVersions(declaration.versions, fields),
    scopes: resolveScopes(declaration.scopes),
    ...(declaration.description === undefined ? {} : { description: declaration.description }),
  };
}
