import { DEFAULTS, type ResolvedModel, type ResolvedService } from '../model/index.ts';
import type { RouteDescriptor } from '../routes/index.ts';
import { JOB_STATES, ref } from './components.ts';
import { operationIds } from './naming.ts';
import {
  header,
  json,
  jsonSuccess,
  NOT_MODIFIED,
  noContent,
  pageSuccesses,
  RATE_LIMIT,
  type OperationSpec,
  type Success,
} from './operation-spec.ts';
import { representationName, type DeclarationOf } from './representation-schemas.ts';
import { CONDITIONAL, identifierRef, pagingParameters, READ_HEADERS } from './resource-operations.ts';
import { ownOperation, type OwnOperationDeclaration } from './own-operation.ts';
import { jobSchemaName } from './job-schemas.ts';
import { searchableIn, searchHitName } from './search-hit.ts';
import { processing, producedCollections, seeOtherResult } from './statuses.ts';

/** The operation of a service route: search, the OpenAPI document, a job queue's three, or a custom one. */
export function serviceOperation(
  route: RouteDescriptor & { handler: { kind: 'service' } },
  model: ResolvedModel,
  version: string,
  declarationOf: DeclarationOf,
): OperationSpec {
  const service = model.services.find((candidate) => candidate.name === route.declaration)!;
  const about = service.description ?? `The ${service.name} service.`;
  const tag = service.name;
  const index = route.handler.operation;

  if (service.handler === 'search') {
    const searchable = searchableIn(model, version);
    const maxLimit = Math.min(...searchable.map((collection) => collection.paging.maxLimit));
    const defaultLimit = Math.min(...searchable.map((collection) => collection.paging.defaultLimit));
    const items = searchable.map((collection) => ref('schemas', representationName(collection.singular, version)));
    return {
      operationId: operationIds.search(service.name),
      tag,
      summary: 'Full-text search over one collection, or all of them',
      description: `Matches every word of q (each a prefix) in the searchable fields of the category, answered in that collection's representation. Without category, every searchable collection is searched and each hit is a SearchHit naming its collection and URI, ordered by collection name, then within one collection best match first, then by identifier (ranks of different collections are not compared); limit and offset page through the whole list, and X-Total-Count counts every hit the caller may see. Repeated words count once; too many distinct words get 400 too_many_terms, and any other query parameter 400 unknown_parameter. A search that runs past the server's time budget (SEARCH_TIMEOUT_MS, default 2 s) is stopped: 503 search_timeout.`,
      parameters: [
        ...READ_HEADERS,
        ...CONDITIONAL,
        {
          name: 'q',
          in: 'query',
          required: true,
          description: 'Words to find (each a prefix).',
          schema: { type: 'string', minLength: 1, pattern: '\\S' },
        },
        {
          name: 'category',
          in: 'query',
          description: 'The collection to search; left out, every one of them.',
          schema: { type: 'string', enum: searchable.map((collection) => collection.name) },
        },
        ...pagingParameters({ defaultLimit, maxLimit }),
      ],
      successes: pageSuccesses('The matching resources (with a category), or hits naming their collection (without).', {
        anyOf: [...items, ref('schemas', searchHitName(version))],
      }),
      errors: [],
    };
  }
  if (service.handler === 'health') return healthOperation(service.name, index === 0 ? 'live' : 'ready', about);
  if (service.handler === 'openapi') {
    return {
      operationId: operationIds.document(service.name),
      tag,
      summary: `This document (OpenAPI 3.1, ${version})`,
      description: `The OpenAPI 3.1 document of ${version}, with the server's base URL in servers.`,
      parameters: [...READ_HEADERS, ...CONDITIONAL],
      successes: [
        jsonSuccess(
          '200',
          `The OpenAPI document of ${version}.`,
          {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
          },
          'ETag',
          'E-Tag',
        ),
        NOT_MODIFIED,
      ],
      errors: [],
    };
  }
  if (service.handler === 'job-queue') {
    const jobId = identifierRef('job_id');
    const bodies = service.jobTypes.map((type) => ref('schemas', jobSchemaName(service.name, type)));
    if (index === 0) {
      return {
        operationId: operationIds.enqueue(service.name),
        tag,
        summary: 'Add a job to the queue',
        description: `Queues a job of a declared type; an unknown type or payload gets 400. Location and the body's uri name the job.`,
        parameters: [header('PrettyPrint')],
        requestBody: {
          required: true,
          // The mapping names each type's schema: without it, tools take the schema's name for the type's value.
          content: json(
            bodies.length === 1
              ? bodies[0]!
              : {
                  oneOf: bodies,
                  discriminator: {
                    propertyName: 'type',
                    mapping: Object.fromEntries(
                      service.jobTypes.map((type) => [
                        type,
                        `#/components/schemas/${jobSchemaName(service.name, type)}`,
                      ]),
                    ),
                  },
                },
          ),
        },
        successes: [jsonSuccess('202', 'Accepted: the job is queued.', ref('schemas', 'Job'), 'Location')],
        errors: [],
      };
    }
    if (index === 1) {
      const produced = producedCollections(model, service.name, service.jobProduces);
      return {
        operationId: operationIds.job(service.name),
        tag,
        summary: 'Read the state of one job',
        description: `The job's state, and its result or errors once finished; 303 to the resource a finished job produced.`,
        parameters: [...READ_HEADERS, ...CONDITIONAL, jobId],
        successes: [jobOrWhatItProduced(model, version, produced), ...seeOtherResult(produced), NOT_MODIFIED],
        errors: ['404'],
      };
    }
    if (index === 3) return jobListOperation(model, service, tag);
    return {
      operationId: operationIds.removeJob(service.name),
      tag,
      summary: 'Remove a queued or finished job',
      description: `Removes the job; 423 while it runs.`,
      parameters: [jobId],
      successes: [noContent('Removed.')],
      errors: ['404', '423'],
    };
  }
  return customOperation(service, index, about, declarationOf, model, version);
}

/**
 * The 200 of a job's GET: the job. A client that follows redirects (fetch does, by default) is
 * answered the 303 of a finished job by the resource it produced, under this operation's 200: the
 * schema says so (any of the job and the representations of what it may produce), so that a client
 * generated from the document types that answer as what it may be, not as a job.
 */
function jobOrWhatItProduced(model: ResolvedModel, version: string, produced: readonly string[]): Success {
  const results = model.collections
    .filter((collection) => produced.includes(collection.name))
    .filter((collection) => collection.versions.some((candidate) => candidate.name === version))
    .map((collection) => ref('schemas', representationName(collection.singular, version)));
  if (results.length === 0) return jsonSuccess('200', 'The job.', ref('schemas', 'Job'), 'ETag', 'E-Tag');
  return jsonSuccess(
    '200',
    'The job; or, to a client that follows the 303 of a finished job (as fetch does by default), the resource the job produced.',
    { anyOf: [ref('schemas', 'Job'), ...results] },
    'ETag',
    'E-Tag',
  );
}

/**
 * GET of a job queue: the caller's own jobs, oldest first, a page like every list's. `type` takes the
 * queue's declared types and those of the asynchronous operations queued on it (`batches.create`).
 */
function jobListOperation(model: ResolvedModel, service: ResolvedService, tag: string): OperationSpec {
  const types = [
    ...service.jobTypes,
    ...model.collections.flatMap((collection) =>
      collection.asynchronous?.queue === service.name
        ? collection.asynchronous.operations.map((operation) => `${collection.name}.${operation}`)
        : [],
    ),
  ].sort();
  return {
    operationId: operationIds.listJobs(service.name),
    tag,
    summary: 'List the jobs the caller queued',
    description: `The jobs the caller (the same client and user) queued, through PUT or an asynchronous operation, oldest first; other callers' jobs are never listed. A state or type that is none of those listed, or any other parameter, gets 400.`,
    parameters: [
      ...READ_HEADERS,
      ...CONDITIONAL,
      {
        name: 'state',
        in: 'query',
        description: 'Only the jobs in this state.',
        schema: { type: 'string', enum: JOB_STATES },
      },
      {
        name: 'type',
        in: 'query',
        description: 'Only the jobs of this type.',
        schema: { type: 'string', enum: types },
      },
      // The runtime pages jobs with a collection's defaults.
      ...pagingParameters(DEFAULTS.paging),
    ],
    successes: pageSuccesses("The caller's jobs.", ref('schemas', 'Job')),
    errors: [],
  };
}

/** The health service's two operations: open (no token, no call limit), 200 or 503 (readiness: a dependency does not answer). */
function healthOperation(name: string, which: 'live' | 'ready', about: string): OperationSpec {
  const body =
    which === 'live'
      ? {
          type: 'object',
          required: ['status'],
          additionalProperties: false,
          properties: { status: { type: 'string', const: 'alive' } },
        }
      : {
          type: 'object',
          required: ['status', 'checks'],
          additionalProperties: false,
          properties: {
            status: { type: 'string', const: 'ready' },
            checks: {
              type: 'object',
              description:
                'Each dependency checked: the store, "ok" (else the answer is 503); redis when used, "ok" or "degraded: <why>" (the server serves without it, counting calls per process).',
              additionalProperties: { type: 'string', pattern: '^(ok|degraded: .+)$' },
            },
          },
        };
  // No call limit on an open route, so no X-RateLimit-* headers.
  const headers = ['X-Pretty-Print', 'ETag', 'E-Tag'];
  return {
    operationId: which === 'live' ? operationIds.health(name) : operationIds.readiness(name),
    tag: name,
    summary:
      which === 'live'
        ? 'Liveness: 200 while the process serves requests'
        : 'Readiness: 200 when every dependency answers',
    description:
      which === 'live'
        ? `${about} Needs no token and counts against no call limit.`
        : `${about} 503 when a dependency (the store) does not answer, and during shutdown. Needs no token and counts against no call limit.`,
    parameters: [header('PrettyPrint'), ...CONDITIONAL],
    successes: [
      { status: '200', description: which === 'live' ? 'Alive.' : 'Ready.', headers, schema: body },
      {
        status: '304',
        description: 'Not Modified: the version the client holds is current.',
        headers: ['ETag', 'E-Tag'],
      },
    ],
    errors: [],
    open: true,
  };
}

/** An operation a definition writes itself: its query and body schemas, the statuses it may answer. */
function customOperation(
  service: ResolvedService,
  index: number,
  about: string,
  declarationOf: DeclarationOf,
  model: ResolvedModel,
  version: string,
): OperationSpec {
  const declared = (declarationOf(service.source) as { operations: OwnOperationDeclaration[] }).operations[index];
  const resolved = service.operations[index]!;
  const path = resolved.path;
  return ownOperation({
    declared,
    resolved,
    operationId: declared?.operationId ?? operationIds.custom(resolved.method, service.name, path),
    tag: service.name,
    summary: resolved.description ?? `${resolved.method} ${service.name}`,
    description: `${about}${resolved.description === undefined ? '' : `\n\n${resolved.description}`}`,
    pathParameters: path.startsWith(':')
      ? [{ name: path.slice(1), in: 'path', required: true, schema: { type: 'string' } }]
      : [],
    model,
    version,
  });
}
