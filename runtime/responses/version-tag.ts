import type { Context } from 'koa';
import { etagOf } from '../caching/entity-tags.ts';
import { serializeJson } from './serialize.ts';

/**
 * One entity tag per version of the data, whatever the presentation (conventions: the ETag is the
 * version of the data). The tag is the one of the resource's canonical representation: every field,
 * references as URIs (no expansion), in the server's default layout. A GET asking for exactly that
 * (the common case) is tagged from the bytes it sends, at no extra cost; one asking for fewer fields
 * (X-Result-Fields), expanded references (X-Expansion-Fields) or the other layout (X-Pretty-Print)
 * gets the same tag, computed from the canonical representation its handler leaves with
 * setVersionBody() (or, when only the layout differs, from its own body laid out the default way).
 * So If-Match takes a tag read under any presentation, and If-None-Match answers 304 across them;
 * Vary (cacheHeaders) keeps caches from handing one presentation's bytes to another.
 */
const VERSION_BODY_STATE = Symbol('versionBody');

/** Leaves the canonical representation of what this response presents otherwise (see above). */
export function setVersionBody(ctx: Context, canonical: unknown): void {
  (ctx.state as Record<symbol, unknown>)[VERSION_BODY_STATE] = canonical;
}

/** The canonical representation a handler left, if any. */
export function versionBodyOf(ctx: Context): unknown {
  return (ctx.state as Record<symbol, unknown>)[VERSION_BODY_STATE];
}

/** The tag of a canonical representation, laid out as the server does by default. */
export function versionTagOf(canonical: unknown, prettyByDefault = true): string {
  return etagOf(serializeJson(canonical, { pretty: prettyByDefault }));
}
