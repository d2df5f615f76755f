import type { RouteHandler } from '../routing/index.ts';
import type { ApiContext } from './api-definition.ts';
import { notFound } from '../errors/index.ts';
import { setJsonBody } from '../http/index.ts';

/** GET /services/{version}/openapi: the OpenAPI 3.1 document of that version, as this server serves it (see servedDocument()). */
export function openApiHandler(context: ApiContext, version: string): RouteHandler {
  return async (ctx) => {
    const document = await context.services.openApi(version);
    if (document === undefined) throw notFound('document_not_found', `no OpenAPI document for ${version}`);
    setJsonBody(ctx, document);
  };
}
