import type { RouteHandler } from '../routing/index.ts';
import type { ApiContext } from '../app/api-definition.ts';
import { notFound } from '../errors/index.ts';
import { setJsonBody } from '../http/index.ts';

/**
 * A generated document as this server serves it: `servers` names the server's own BASE_URL, so a
 * tool given the served document needs no base URL by hand.
 */
export function servedDocument(document: unknown, baseUrl: string): unknown {
  if (document === null || typeof document !== 'object') return document;
  return { ...document, servers: [{ url: baseUrl, description: 'This server (its BASE_URL).' }] };
}

/** GET /services/{version}/openapi: the OpenAPI 3.1 document of that version, with this server in `servers`. */
export function openApiHandler(context: ApiContext, version: string): RouteHandler {
  let served: unknown;
  return (ctx) => {
    const document = context.services.openApi(version);
    if (document === undefined) throw notFound('document_not_found', `no OpenAPI document for ${version}`);
    served ??= servedDocument(document, context.baseUrl);
    setJsonBody(ctx, served);
  };
}
