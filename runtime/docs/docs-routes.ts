import type { Context } from 'koa';
import { matchesIfNoneMatch, etagOf } from '../caching/index.ts';
import { notFound } from '../errors/index.ts';
import type { Route } from '../routing/index.ts';
import { docsInitScript, docsPageHtml } from './docs-page.ts';
import { swaggerUiAsset, type DocsAsset } from './swagger-ui-assets.ts';
import { setResponseHeader } from '../http/index.ts';

export interface DocsRoutesOptions {
  /** The versions that have an OpenAPI document. */
  readonly versions: readonly string[];
  /** The openapi service's name: the document of version v is at /services/{v}/{documentName}. */
  readonly documentName: string;
}

/** The path of a version's docs page: `/services/v1/docs`. */
export const docsPathOf = (version: string) => `/services/${version}/docs`;

/** Sends a static file with its tag, or 304 when the client's tag is current. */
function sendStatic(ctx: Context, asset: DocsAsset): void {
  setResponseHeader(ctx, 'ETag', asset.etag);
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch !== '' && matchesIfNoneMatch(ifNoneMatch, asset.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = asset.type;
  ctx.body = asset.body;
}

const textAsset = (type: string, text: string): DocsAsset => {
  const body = Buffer.from(text, 'utf8');
  return { type, body, etag: etagOf(body) };
};

/**
 * The interactive API reference of each version, in the service family: GET /services/{v}/docs (the
 * page), /services/{v}/docs/init.js and the Swagger UI files it loads, served by the server itself
 * from the swagger-ui-dist package. The page reads the version's document from the openapi service.
 * These routes are not part of the OpenAPI documents: they serve people, not API callers.
 *
 * @example
 * const routes = [...api.routes(context), ...docsRoutes({ versions: ['v1', 'v2'], documentName: 'openapi' })];
 */
export function docsRoutes({ versions, documentName }: DocsRoutesOptions): Route[] {
  const script = textAsset('text/javascript; charset=utf-8', docsInitScript(documentName));
  return versions.flatMap((version): Route[] => {
    const page = textAsset('text/html; charset=utf-8', docsPageHtml(version));
    return [
      { method: 'GET', family: 'service', path: docsPathOf(version), handle: (ctx) => sendStatic(ctx, page) },
      {
        method: 'GET',
        family: 'service',
        path: `${docsPathOf(version)}/:asset`,
        handle: (ctx, params) => {
          const name = params.asset ?? '';
          const asset = name === 'init.js' ? script : swaggerUiAsset(name);
          if (asset === undefined) throw notFound('path_not_found', `no docs file ${name}`, { field: 'asset' });
          sendStatic(ctx, asset);
        },
      },
    ];
  });
}
