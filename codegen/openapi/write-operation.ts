import { operationIds } from './naming.ts';
import { header, RATE_LIMIT, type OperationSpec, type Success } from './operation-spec.ts';
import { BODY_ERRORS, COMMON_ERRORS, errorRefs, headersOf, OPEN_ROUTE_ERRORS } from './responses.ts';
import type { JsonSchema } from './schema-of.ts';

/** What a deprecated version adds to each success. */
const DEPRECATION_HEADERS = ['Deprecation', 'Sunset'];

function successResponse(success: Success, deprecated: boolean, withBody: boolean): JsonSchema {
  return {
    description: success.description,
    headers: headersOf([...success.headers, ...(deprecated ? DEPRECATION_HEADERS : [])]),
    ...(success.schema === undefined || !withBody ? {} : { content: { 'application/json': { schema: success.schema } } }),
  };
}

/** The error statuses of an operation: its own, the common ones, and the body's when it takes one. */
function errorStatusesOf(spec: OperationSpec): string[] {
  return [...(spec.open === true ? OPEN_ROUTE_ERRORS : COMMON_ERRORS), ...(spec.requestBody === undefined ? [] : BODY_ERRORS), ...spec.errors];
}

/** An operation spec written as an OpenAPI operation object. */
export function writeOperation(spec: OperationSpec, deprecated: boolean): JsonSchema {
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(deprecated ? { deprecated: true } : {}),
    ...(spec.open === true ? { security: [] } : {}),
    parameters: spec.parameters,
    ...(spec.requestBody === undefined ? {} : { requestBody: spec.requestBody }),
    responses: {
      ...Object.fromEntries(spec.successes.map((success) => [success.status, successResponse(success, deprecated, true)])),
      ...errorRefs(errorStatusesOf(spec)),
    },
  };
}

/**
 * HEAD of a GET operation: the server answers HEAD as GET (same status, same headers, same checks)
 * and sends no body.
 */
export function writeHeadOperation(get: OperationSpec, deprecated: boolean): JsonSchema {
  return {
    operationId: operationIds.head(get.operationId),
    tags: [get.tag],
    summary: `${get.summary} (headers only)`,
    description: `HEAD of ${get.operationId}: the same status and headers as the GET would answer, without a body.`,
    ...(deprecated ? { deprecated: true } : {}),
    ...(get.open === true ? { security: [] } : {}),
    parameters: get.parameters,
    responses: {
      ...Object.fromEntries(get.successes.map((success) => [success.status, successResponse(success, deprecated, false)])),
      ...errorRefs(errorStatusesOf(get), true),
    },
  };
}

/**
 * OPTIONS of a path: 204 with Allow naming the methods it answers. Any other method on the path gets
 * 405 Method Not Allowed with the same Allow and the error body.
 */
export function writeOptionsOperation(path: string, tag: string, methods: readonly string[], deprecated: boolean): JsonSchema {
  const allowed = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
  return {
    operationId: operationIds.options(path),
    tags: [tag],
    summary: `Methods of ${path}`,
    description: `Answers 204 with Allow: ${allowed.join(', ')}. Any other method on this path gets 405 Method Not Allowed, with the same Allow header and the error body.`,
    ...(deprecated ? { deprecated: true } : {}),
    parameters: [header('UserAgent'), ...pathParametersOf(path)],
    responses: {
      '204': {
        description: 'The methods this path answers.',
        headers: {
          Allow: { description: 'The methods this path answers.', required: true, schema: { type: 'string', const: allowed.join(', ') } },
          ...headersOf([...RATE_LIMIT, ...(deprecated ? DEPRECATION_HEADERS : [])]),
        },
      },
      ...errorRefs(COMMON_ERRORS),
    },
  };
}

/** OPTIONS does not look at identifiers; each path parameter is any non-empty segment. */
function pathParametersOf(path: string): JsonSchema[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, description: 'Any value: OPTIONS does not look it up.', schema: { type: 'string', minLength: 1 } }));
}
