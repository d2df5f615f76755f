import type { Context, Middleware, Next } from 'koa';
import Bourne from '@hapi/bourne';
import { badRequest } from '../errors/index.ts';
import { BODY_METHODS, hasRequestBody } from './negotiate-json.ts';
import { readBodyText } from './read-body.ts';
import { repeatedMember } from './repeated-member.ts';

export interface JsonBodyOptions {
  /** Largest accepted body in bytes; larger gets 413 payload_too_large. Default 1 MiB. */
  limitBytes?: number;
}

/** The parsed JSON request body, or undefined when the request carried none. */
export function requestBody(ctx: Context): unknown {
  return (ctx.request as { body?: unknown }).body;
}

/**
 * Reads and parses a JSON request body once, with a size limit, into `ctx.request.body`: decoded
 * from gzip, deflate or br when Content-Encoding says so (the limit counts decoded bytes), UTF-8 only,
 * an object or an array at the top level. Malformed JSON (or a `__proto__` member) gets 400
 * malformed_json, an object naming a member twice 400 duplicate_member (repeated-member.ts), a body
 * over the limit 413 before it is fully read; see readBodyText() for the encoding errors.
 *
 * @example
 * app.use(jsonBody({ limitBytes: 64 * 1024 }));
 * router.post('/v1/orders', (ctx) => { const order = requestBody(ctx); ... });
 */
export function jsonBody({ limitBytes = 1024 * 1024 }: JsonBodyOptions = {}): Middleware {
  const readBody = async (ctx: Context, next: Next) => {
    (ctx.request as { body?: unknown }).body = parseJson(await readBodyText(ctx, limitBytes));
    await next();
  };
  // Requests without a body (every GET) pass straight on, without an async frame of their own.
  return function jsonBodyMiddleware(ctx: Context, next: Next) {
    return BODY_METHODS.has(ctx.method) && hasRequestBody(ctx) ? readBody(ctx, next) : next();
  };
}

/** JSON resources are objects or arrays: anything else at the top level is as malformed as bad syntax. */
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;

function parseJson(text: string): unknown {
  if (!OBJECT_OR_ARRAY.test(text))
    throw badRequest('malformed_json', 'the request body must be a JSON object or array');
  let parsed: unknown;
  try {
    // Bourne refuses a `__proto__` member instead of letting it reach an object's prototype.
    parsed = Bourne.parse(text, { protoAction: 'error' });
  } catch {
    // Said apart only once refused: well-formed JSON that Bourne refused holds a `__proto__` member.
    if (isWellFormed(text)) {
      throw badRequest('malformed_json', 'the request body has a member named __proto__, which is never accepted', {
        field: '__proto__',
      });
    }
    throw badRequest('malformed_json', 'the request body is not well-formed JSON');
  }
  const repeated = repeatedMember(text, parsed);
  if (repeated !== undefined)
    throw badRequest(
      'duplicate_member',
      `the request body names ${repeated === '' ? 'a member' : repeated} twice in one object; send each member once`,
      { field: repeated },
    );
  return parsed;
}

function isWellFormed(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
