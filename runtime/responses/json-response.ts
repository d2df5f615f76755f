import type { Context, Middleware } from 'koa';
import { stepMiddleware, type ResponseStep } from '../http/response-step.ts';
import { etagOf, matchesIfNoneMatch } from '../caching/entity-tags.ts';
import { formatLastModified, notModifiedSince, parseModifiedSince } from '../caching/modified-since.ts';
import { toApiError } from '../errors/index.ts';
import { renderError } from '../http/index.ts';
import { JSON_CONTENT_TYPE } from '../http/media-types.ts';
import {
  declaredBodyLength,
  JSON_SERIALISER_STATE,
  requestHeader,
  setResponseHeader,
  type JsonSerialiser,
} from '../http/headers.ts';
import { presentationOf, serializeJson, type Presentation } from './serialize.ts';
import { versionBodyOf, versionTagOf } from './version-tag.ts';

/**
 * The ctx.state key where a handler leaves when its resource last changed: a Date, or an ISO 8601
 * string as the store keeps it.
 */
export const LAST_MODIFIED_STATE = 'lastModified';

/**
 * The ctx.state key where a PUT or PATCH handler that answers the value it left, and has no time of
 * change to give in LAST_MODIFIED_STATE (a setting), says so (true): the answer is tagged as a read is.
 */
export const VERSIONED_WRITE_STATE = 'versionedWrite';

/** The ctx.state key where the serialiser leaves, on a 304, the length the 200's body would have had. */
export const BODY_LENGTH_STATE = 'jsonBodyLength';

export interface JsonResponseOptions {
  /** Pretty-print unless the request says `X-Pretty-Print: false`. Default true. */
  prettyByDefault?: boolean;
}

function isPlainJson(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  if (Array.isArray(body)) return true;
  return Object.getPrototypeOf(body) === Object.prototype;
}

/**
 * The one serialiser: turns a handler's plain object or array into bytes exactly once (pretty or
 * compact, with X-Pretty-Print saying which), with `Content-Type: application/json;charset=UTF-8`.
 * For a 200 GET it then tags those same bytes (ETag, and the conventions' E-Tag), sends
 * Last-Modified in ISO 8601, and answers 304 with no body when If-None-Match (weak comparison, lists,
 * `*`) or, failing that, If-Modified-Since (ISO 8601 or HTTP-date) says the client is current. A 200
 * PUT or PATCH whose handler left its row's last change (LAST_MODIFIED_STATE), or said that it answers
 * the version it left (VERSIONED_WRITE_STATE), is tagged the same way, with no 304.
 * Mount it outside the error handler so error bodies are serialised the same way.
 *
 * @example
 * app.use(jsonResponse());
 * app.use(errorHandler());
 * app.use((ctx) => { ctx.body = { order_id: 1 }; });
 */
export function jsonResponse(options: JsonResponseOptions = {}): Middleware {
  return stepMiddleware(jsonResponseStep(options));
}

/** The ctx.state key under which the serialiser remembers the text it made (setJsonBody's fast path). */
const SERIALISED_STATE = Symbol('serialisedJson');
/** And the value it made it from, with the layout, for the tag of a body laid out the other way. */
const SERIALISED_VALUE_STATE = Symbol('serialisedValue');

interface Serialised {
  readonly value: unknown;
  readonly pretty: boolean;
}

/** jsonResponse() as a step of conventionalResponse(). */
export function jsonResponseStep({ prettyByDefault = true }: JsonResponseOptions = {}): ResponseStep {
  /** The one serialisation: the text in the requested layout, its type, and X-Pretty-Print saying which. */
  const serialise = (ctx: Context, value: unknown, presentation: Presentation): string => {
    const text = serializeJson(value, presentation);
    // The type before the body, so Koa does not guess one from the text.
    if (ctx.res.getHeader('Content-Type') !== JSON_CONTENT_TYPE)
      setResponseHeader(ctx, 'Content-Type', JSON_CONTENT_TYPE);
    setResponseHeader(ctx, 'X-Pretty-Print', presentation.pretty ? 'true' : 'false');
    return text;
  };
  // setJsonBody serialises at once through this; a bad X-Pretty-Print leaves the value to leave(),
  // which renders the 400 (presentationHeaders() normally refused it before any handler ran).
  const serialiseNow: JsonSerialiser = (ctx, value) => {
    if (!isPlainJson(value)) return undefined;
    let presentation: Presentation;
    try {
      presentation = presentationOf(ctx, prettyByDefault);
    } catch {
      return undefined;
    }
    const text = serialise(ctx, value, presentation);
    (ctx.state as Record<symbol, unknown>)[SERIALISED_STATE] = text;
    (ctx.state as Record<symbol, unknown>)[SERIALISED_VALUE_STATE] = {
      value,
      pretty: presentation.pretty,
    } satisfies Serialised;
    return text;
  };
  return {
    enter(ctx: Context) {
      (ctx.state as Record<symbol, unknown>)[JSON_SERIALISER_STATE] = serialiseNow;
    },
    leave(ctx: Context) {
      const body: unknown = ctx.body;
      const serialised = (ctx.state as Record<symbol, unknown>)[SERIALISED_STATE] as string | undefined;
      let text: string;
      let made: Serialised;
      if (serialised !== undefined && body === serialised) {
        text = serialised;
        made = (ctx.state as Record<symbol, unknown>)[SERIALISED_VALUE_STATE] as Serialised;
      } else {
        if (!isPlainJson(body)) {
          // A handler that set JSON and then another kind of body: the layout header no longer applies.
          if (serialised !== undefined) ctx.res.removeHeader('X-Pretty-Print');
          return;
        }
        let presentation: Presentation;
        try {
          presentation = presentationOf(ctx, prettyByDefault);
        } catch (error) {
          renderError(ctx, toApiError(error));
          presentation = { pretty: prettyByDefault };
        }
        made = { value: ctx.body, pretty: presentation.pretty };
        text = serialise(ctx, ctx.body, presentation);
        ctx.body = text;
      }
      if (ctx.status !== 200) return;
      const read = ctx.method === 'GET' || ctx.method === 'HEAD';
      // A PUT or PATCH that answers the resource it changed (its handler left the row's last change,
      // as a read does, or said so) carries its new version too: the client's next If-Match needs no GET first.
      const written =
        (ctx.method === 'PUT' || ctx.method === 'PATCH') &&
        (ctx.state[LAST_MODIFIED_STATE] !== undefined || ctx.state[VERSIONED_WRITE_STATE] === true);
      if (!read && !written) return;

      // The version's tag (version-tag.ts): from the bytes sent when they are the canonical ones.
      const canonical = versionBodyOf(ctx);
      const tag =
        canonical !== undefined
          ? versionTagOf(canonical, prettyByDefault)
          : made.pretty === prettyByDefault
            ? etagOf(text)
            : versionTagOf(made.value, prettyByDefault);
      setResponseHeader(ctx, 'ETag', tag);
      setResponseHeader(ctx, 'E-Tag', tag);
      const changed = ctx.state[LAST_MODIFIED_STATE] as Date | string | undefined;
      const lastModified = changed === undefined ? undefined : formatLastModified(changed);
      if (lastModified !== undefined) setResponseHeader(ctx, 'Last-Modified', lastModified);
      if (read && isNotModified(ctx, tag, lastModified)) {
        ctx.state[BODY_LENGTH_STATE] = declaredBodyLength(ctx);
        // Koa's status setter drops the body, with its Content-Type, Content-Length and
        // Transfer-Encoding, for a status that has none; nothing is left to remove after it.
        ctx.status = 304;
        if (ctx.body !== null) ctx.body = null;
      }
    },
  };
}

function isNotModified(ctx: Context, tag: string, lastModified: string | undefined): boolean {
  const ifNoneMatch = requestHeader(ctx, 'if-none-match');
  if (ifNoneMatch !== '') return matchesIfNoneMatch(ifNoneMatch, tag);
  const ifModifiedSince = requestHeader(ctx, 'if-modified-since');
  if (ifModifiedSince === '' || lastModified === undefined) return false;
  const since = parseModifiedSince(ifModifiedSince);
  return since !== undefined && notModifiedSince(new Date(lastModified), since);
}
