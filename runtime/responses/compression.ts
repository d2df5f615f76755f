import { gzipSync } from 'node:zlib';
import compress from 'koa-compress';
import type { Context, Middleware, Next } from 'koa';
import { stepMiddleware, type ResponseStep } from '../http/response-step.ts';
import { GZIP_TAG_SUFFIX } from '../caching/entity-tags.ts';
import { BODY_LENGTH_STATE } from './json-response.ts';
import { declaredBodyLength, requestHeader, responseHeader, setResponseHeader } from '../http/headers.ts';
import { JSON_CONTENT_TYPE } from '../http/media-types.ts';

export interface CompressionOptions {
  /** Bodies smaller than this many bytes are sent as they are. Default 1024. */
  thresholdBytes?: number;
}

/**
 * gzip (koa-compress) when Accept-Encoding allows it and the body is over the threshold, or at any
 * size when Accept-Encoding refuses unencoded responses (negotiateJson() answers 406 when it refuses
 * gzip too); never for
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
  const gzip = compress({
    threshold: thresholdBytes,
    gzip: true,
    deflate: false,
    br: false,
    zstd: false,
  } as compress.CompressOptions);
  // A client that refuses unencoded responses (identity;q=0) gets even a small body gzipped.
  const gzipAlways = compress({
    threshold: 0,
    gzip: true,
    deflate: false,
    br: false,
    zstd: false,
  } as compress.CompressOptions);
  const alreadyDone: Next = () => Promise.resolve();
  const tagVariant = (ctx: Context, compressed: boolean) => {
    const gzipped =
      (compressed && responseHeader(ctx, 'Content-Encoding') === 'gzip') ||
      // A 304 carries the tag the 200 would have carried: gzipped when it would have been.
      (ctx.status === 304 &&
        ctx.acceptsEncodings('gzip', 'identity') === 'gzip' &&
        (Number(ctx.state[BODY_LENGTH_STATE] ?? 0) >= thresholdBytes || refusesIdentity(ctx)));
    if (!gzipped) return;
    const tag = responseHeader(ctx, 'ETag');
    if (tag === '' || tag.endsWith(`${GZIP_TAG_SUFFIX}"`)) return;
    const suffixed = `${tag.slice(0, -1)}${GZIP_TAG_SUFFIX}"`;
    setResponseHeader(ctx, 'ETag', suffixed);
    if (responseHeader(ctx, 'E-Tag') !== '') setResponseHeader(ctx, 'E-Tag', suffixed);
  };
  return {
    enter: varyOnAcceptEncoding,
    leave(ctx: Context) {
      // No Accept-Encoding: koa-compress would send the body as it is (its default encoding is
      // identity) and only name Accept-Encoding in Vary, which enter() did; a 304's tag has no gzip
      // suffix either. Negotiating that anyway cost about 7 µs a request (BENCHMARKS.md).
      if (requestHeader(ctx, 'accept-encoding') === '') return undefined;
      // koa-compress runs once the body is known, and only when it could be compressed: most JSON
      // bodies are under the threshold, and negotiating their encoding would be wasted work.
      const length = declaredBodyLength(ctx);
      const hasBody = ctx.body !== null && ctx.body !== undefined;
      if (hasBody && refusesIdentity(ctx)) {
        // Only gzip will do, whatever the size; when gzip is refused too (negotiateJson's 406), nothing
        // the client accepts exists and the error goes as it is.
        if (ctx.acceptsEncodings('gzip') === false || responseHeader(ctx, 'Content-Encoding') !== '')
          return tagVariant(ctx, false);
        if (gzipJsonTextNow(ctx, length)) return tagVariant(ctx, true);
        return gzipAlways(ctx, alreadyDone).then(() => tagVariant(ctx, true));
      }
      const compressible = hasBody && (length === undefined || length >= thresholdBytes);
      if (compressible && gzipJsonTextNow(ctx, length)) return tagVariant(ctx, true);
      if (compressible) return gzip(ctx, alreadyDone).then(() => tagVariant(ctx, true));
      tagVariant(ctx, false);
      return undefined;
    },
  };
}

/** Past this many bytes a JSON text goes through koa-compress's stream, off the event loop. */
const SYNC_GZIP_MAX_BYTES = 64 * 1024;
const UNCOMPRESSED_STATUSES = new Set([204, 205, 206, 304]);

/**
 * zlib's settings for the texts gzipped at once: an 8 KiB window and smaller hash tables instead of
 * 32 KiB and the default, about 40% less CPU per body (most of it was setting up zlib's 256 KiB of
 * state), for the same size on a list of 20 or 100 orders and 0.6% more on one of 500.
 */
const SMALL_TEXT_GZIP = { windowBits: 13, memLevel: 7 } as const;

/**
 * The serialiser's JSON text, gzipped at once with zlib.gzipSync where koa-compress would gzip it,
 * then sent with its Content-Length. koa-compress pipes every body through a gzip stream, whose
 * setup and hand-offs to the thread pool cost a list of 20 several times what compressing the text
 * itself costs (BENCHMARKS.md).
 * Answers false, leaving the body to koa-compress, for anything but that text up to 64 KiB: a
 * stream or other body, HEAD, a bodiless or partial status, a body already encoded, Cache-Control:
 * no-transform, or a response whose ctx.compress says otherwise. Answers true once it has decided:
 * gzipped, or left as it is when Accept-Encoding prefers identity (as koa-compress would).
 */
function gzipJsonTextNow(ctx: Context, length: number | undefined): boolean {
  const body: unknown = ctx.body;
  if (typeof body !== 'string' || length === undefined || length > SYNC_GZIP_MAX_BYTES) return false;
  if (
    ctx.method === 'HEAD' ||
    ctx.res.headersSent ||
    UNCOMPRESSED_STATUSES.has(ctx.status) ||
    (ctx as { compress?: unknown }).compress !== undefined
  )
    return false;
  if (
    ctx.res.getHeader('Content-Type') !== JSON_CONTENT_TYPE ||
    responseHeader(ctx, 'Content-Encoding') !== '' ||
    responseHeader(ctx, 'Content-Range') !== ''
  )
    return false;
  if (/(?:^|,)\s*?no-transform\s*?(?:,|$)/.test(responseHeader(ctx, 'Cache-Control'))) return false;
  // koa-compress's negotiation: `*` means gzip; otherwise the better of gzip and identity, gzip on a tie.
  if (requestHeader(ctx, 'accept-encoding').trim() !== '*' && ctx.acceptsEncodings('gzip', 'identity') !== 'gzip')
    return true;
  const zipped = gzipSync(body, SMALL_TEXT_GZIP);
  setResponseHeader(ctx, 'Content-Encoding', 'gzip');
  ctx.body = zipped;
  return true;
}

/** True when Accept-Encoding refuses an unencoded response (`identity;q=0`, `*;q=0`). */
function refusesIdentity(ctx: Context): boolean {
  // Only a header naming identity or `*` can refuse it (RFC 9110 §12.5.3); any other skips negotiation.
  return /identity|\*/i.test(requestHeader(ctx, 'accept-encoding')) && ctx.acceptsEncodings('identity') === false;
}

/** Vary: Accept-Encoding, unless a Vary header set earlier names it already (cacheHeaders does). */
function varyOnAcceptEncoding(ctx: Context): void {
  const named = responseHeader(ctx, 'Vary');
  if (named === '') setResponseHeader(ctx, 'Vary', 'Accept-Encoding');
  else if (!/(^|[\s,])accept-encoding($|[\s,])/i.test(named) && named !== '*') ctx.vary('Accept-Encoding');
}
