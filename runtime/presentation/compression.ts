import compress from 'koa-compress';
import type { Context, Middleware, Next } from 'koa';
import { stepMiddleware, type ResponseStep } from '../http/response-step.ts';
import { GZIP_TAG_SUFFIX } from '../caching/entity-tags.ts';
import { BODY_LENGTH_STATE } from './json-response.ts';
import { responseHeader, setResponseHeader } from '../http/headers.ts';

export interface CompressionOptions {
  /** Bodies smaller than this many bytes are sent as they are. Default 1024. */
  thresholdBytes?: number;
}

/**
 * gzip (koa-compress) when Accept-Encoding allows it and the body is over the threshold; never for
 * bodiless responses (204, 304). A gzipped variant's ETag gets a `-gzip` suffix, since strong tags
 * must differ per byte sequence; comparisons strip the suffix, so a client sending back either tag
 * gets its 304. Mount outside jsonResponse().
 *
 * @example
 * app.use(compression({ thresholdBytes: 2048 }));
 * app.use(jsonResponse());
 */
export function compression(options: CompressionOptions = {}): Middleware {
  return stepMiddleware(compressionStep(options));
}

/** compression() as a step of conventionalResponse(). */
export function compressionStep({ thresholdBytes = 1024 }: CompressionOptions = {}): ResponseStep {
  const gzip = compress({ threshold: thresholdBytes, gzip: true, deflate: false, br: false, zstd: false } as compress.CompressOptions);
  const alreadyDone: Next = () => Promise.resolve();
  const tagVariant = (ctx: Context, compressed: boolean) => {
    const gzipped =
      (compressed && responseHeader(ctx, 'Content-Encoding') === 'gzip') ||
      // A 304 carries the tag the 200 would have carried: gzipped when it would have been.
      (ctx.status === 304 && ctx.acceptsEncodings('gzip', 'identity') === 'gzip' && Number(ctx.state[BODY_LENGTH_STATE] ?? 0) >= thresholdBytes);
    if (!gzipped) return;
    const tag = responseHeader(ctx, 'ETag');
    if (tag === '' || tag.endsWith(`${GZIP_TAG_SUFFIX}"`)) return;
    const suffixed = `${tag.slice(0, -1)}${GZIP_TAG_SUFFIX}"`;
    ctx.set('ETag', suffixed);
    if (responseHeader(ctx, 'E-Tag') !== '') ctx.set('E-Tag', suffixed);
  };
  return {
    enter: varyOnAcceptEncoding,
    leave(ctx: Context) {
      // koa-compress runs once the body is known, and only when it could be compressed: most JSON
      // bodies are under the threshold, and negotiating their encoding would be wasted work.
      // The length jsonResponse declared, read as is; Koa's getter would parse it back from text.
      const declared = ctx.res.getHeader('Content-Length');
      const length = typeof declared === 'number' ? declared : ctx.response.length;
      const compressible = ctx.body !== null && ctx.body !== undefined && (length === undefined || length >= thresholdBytes);
      if (compressible) return gzip(ctx, alreadyDone).then(() => tagVariant(ctx, true));
      tagVariant(ctx, false);
      return undefined;
    },
  };
}

/** Vary: Accept-Encoding, unless a Vary header set earlier names it already (cacheHeaders does). */
function varyOnAcceptEncoding(ctx: Context): void {
  const named = responseHeader(ctx, 'Vary');
  if (named === '') setResponseHeader(ctx, 'Vary', 'Accept-Encoding');
  else if (!/(^|[\s,])accept-encoding($|[\s,])/i.test(named) && named !== '*') ctx.vary('Accept-Encoding');
}
