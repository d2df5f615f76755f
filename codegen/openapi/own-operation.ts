import { ZodObject } from 'zod';
import type { ResolvedModel, ResolvedServiceOperation } from '../model/index.ts';
import type { RouteDescriptor } from '../routes/index.ts';
import { ref } from './components.ts';
import { operationIds } from './naming.ts';

import { json, jsonSuccess, NOT_MODIFIED, RATE_LIMIT, type OperationSpec } from './operation-spec.ts';
import { representationName } from './representation-schemas.ts';
import { identifierRef, READ_HEADERS, withArticle } from './resource-operations.ts';
import type { DeclarationOf } from './representation-schemas.ts';
import { jsonSchemaOf, type JsonSchema } from './schema-of.ts';
import { processing } from './statuses.ts';

/** What the documents read of a hand-written operation's declaration (the DSL's ServiceOperation). */
export interface OwnOperationDeclaration {
  readonly query?: unknown;
  readonly body?: unknown;
  readonly description?: string;
  readonly operationId?: string;
  readonly processingAfterMs?: number;
  readonly successes?: readonly number[];
}

/**
 * A hand-written operation, on a service path or below one resource of a collection: its query and
 * body schemas, the statuses it may answer. One that answers a collection's resource gives that
 * representation as its 200 body, tagged (ETag); one that works on data may answer what the
 * collections' own writes answer (404 a row it reads is not there or not the caller's, 409 and 422
 * from their rules).
 */
export function ownOperation({
  declared,
  resolved,
  operationId,
  tag,
  summary,
  description,
  pathParameters,
  model,
  version,
}: {
  readonly declared: OwnOperationDeclaration | undefined;
  readonly resolved: Pick<ResolvedServiceOperation, 'method' | 'answers' | 'onData'>;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly pathParameters: readonly JsonSchema[];
  readonly model: ResolvedModel;
  readonly version: string;
}): OperationSpec {
  const query = jsonSchemaOf(declared?.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const answered = model.collections.find((collection) => collection.name === resolved.answers);
  const body: JsonSchema = answered === undefined ? {} : ref('schemas', representationName(answered.singular, version));
  const successes = declared?.successes ?? (answered === undefined ? [200, 204] : [200]);
  // A 200 GET is tagged (ETag) and answers If-None-Match with 304, as every GET is; so is a resource answered.
  const tagged = resolved.method === 'GET' || answered !== undefined;
  return {
    operationId,
    tag,
    summary,
    description,
    parameters: [
      ...READ_HEADERS,
      ...pathParameters,
      ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: (query.required ?? []).includes(name),
        schema,
      })),
    ],
    ...(declared?.body === undefined
      ? {}
      : {
          // The server refuses a member an object body does not declare (unknown_field): so does the document.
          requestBody: {
            required: true,
            content: json(jsonSchemaOf(declared.body instanceof ZodObject ? declared.body.strict() : declared.body)),
          },
        }),
    successes: [
      processing(declared?.processingAfterMs),
      ...[
        tagged ? jsonSuccess('200', 'Success.', body, 'ETag', 'E-Tag') : jsonSuccess('200', 'Success.', body),
        jsonSuccess('201', 'Created.', body),
        jsonSuccess('202', 'Accepted.', {}),
        { status: '204', description: 'Success, nothing returned.', headers: [...RATE_LIMIT] },
      ].filter((success) => successes.includes(Number(success.status))),
      ...(resolved.method === 'GET' && successes.includes(200) ? [NOT_MODIFIED] : []),
    ],
    // An operation with a path parameter names something that may not exist; one on data answers
    // what the collections' writes answer.
    errors: [
      ...(pathParameters.length > 0 || resolved.onData === true ? ['404'] : []),
      ...(resolved.onData === true ? ['409', '422'] : []),
    ],
  };
}

/** A collection's own operation below one resource: `{method} /{version}/{collection}/{id}/{path}`. */
export function resourceOwnOperation(
  route: RouteDescriptor & { handler: { kind: 'own' } },
  model: ResolvedModel,
  version: string,
  declarationOf: DeclarationOf,
): OperationSpec {
  const collection = model.collections.find((candidate) => candidate.name === route.declaration)!;
  const index = route.handler.operation;
  const declared = (declarationOf(collection.source) as { ownOperations: OwnOperationDeclaration[] }).ownOperations[
    index
  ];
  const resolved = collection.ownOperations[index]!;
  return ownOperation({
    declared,
    resolved,
    operationId:
      declared?.operationId ?? operationIds.ownOperation(resolved.method, collection.singular, resolved.path),
    tag: collection.name,
    summary: resolved.description ?? `${resolved.method} the ${resolved.path} of ${withArticle(collection.singular)}`,
    description:
      resolved.description ?? `A hand-written operation below one ${collection.singular}, in one transaction.`,
    pathParameters: [identifierRef(collection.identifier.name)],
    model,
    version,
  });
}
