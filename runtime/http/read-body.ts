import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError, badRequest, payloadTooLarge, toApiError } from '../errors/index.ts';

/** The Content-Encodings a request body may arrive in, each with its decoder. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** One strict decoder: an invalid UTF-8 sequence is an error, never a U+FFFD stored in a resource. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The request body as text: decoded from its Content-Encoding (gzip, deflate, br) with the size
 * limit applied to the decoded bytes, so a compression bomb stops at `limitBytes` (413); a corrupt
 * or mislabelled encoding is 400 malformed_body, an unknown one or a charset other than UTF-8 415,
 * invalid UTF-8 400 invalid_utf8, a body cut short 400 incomplete_body. Nothing is half-read into
 * a handler: every failure is one of these errors.
 */
export async function readBodyText(ctx: Context, limitBytes: number): Promise<string> {
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(
      415,
      'unsupported_charset',
      `request bodies must be UTF-8; the Content-Type names charset ${JSON.stringify(charset)}`,
    );
  }
  const coding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
  let source: Readable = ctx.req;
  if (coding !== 'identity') {
    const decoder = DECODERS[coding];
    if (decoder === undefined)
      throw new ApiError(
        415,
        'unsupported_content_encoding',
        `request bodies may be sent as gzip, deflate, br or identity, not ${JSON.stringify(coding)}`,
      );
    const decoding = decoder();
    // An aborted upload must end the decoder too, or getRawBody would wait on it for ever.
    ctx.req.once('error', (error) => decoding.destroy(error));
    source = ctx.req.pipe(decoding);
  }
  let bytes: Buffer;
  try {
    const declared = ctx.get('Content-Length');
    bytes = await getRawBody(source, {
      limit: limitBytes,
      ...(coding === 'identity' && declared !== '' ? { length: declared } : {}),
    });
  } catch (error) {
    // Stop decoding what is left (a bomb past the limit) and stop reading the upload.
    if (source !== ctx.req) source.destroy();
    throw readError(error, limitBytes, coding);
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw badRequest('invalid_utf8', 'the request body is not valid UTF-8');
  }
}

function readError(error: unknown, limitBytes: number, coding: string): ApiError {
  const { type, code } = error as { type?: unknown; code?: unknown };
  if (type === 'entity.too.large') return payloadTooLarge(limitBytes);
  if (type === 'request.size.invalid' || type === 'request.aborted')
    return badRequest('incomplete_body', 'the request body ended before its declared length');
  // zlib's own errors (Z_DATA_ERROR, Z_BUF_ERROR, ERR_BROTLI_…, ERR__ERROR_FORMAT_PADDING_1…): the bytes are not what Content-Encoding says.
  if (coding !== 'identity' && typeof code === 'string')
    return badRequest('malformed_body', `the request body is not valid ${coding} data`);
  return toApiError(error);
}
