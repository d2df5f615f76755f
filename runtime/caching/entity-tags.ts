import { hash } from 'node:crypto';
import { preconditionFailed } from '../errors/index.ts';
import { rememberRecent } from './recent-results.ts';

/**
 * A strong entity tag over the exact bytes of a representation: 160 bits of SHA-1, base64url.
 * (Not a security hash: it only has to change when the bytes do.)
 */
export function etagOf(bytes: Buffer | string): string {
  return typeof bytes === 'string' ? recentTagOf(bytes) : hashTag(bytes);
}

// Most GETs send a representation that has not changed since it was last sent: its tag is found
// rather than hashed again. Texts of at most 4,096 characters, at most 1,000 of them (about 8 MiB
// at worst).
const recentTagOf = rememberRecent((text: string) => hashTag(text), { maxEntries: 1000, maxKeyLength: 4096 });

function hashTag(bytes: Buffer | string): string {
  // crypto.hash is the one-shot form: no Hash object per response.
  return `"${hash('sha1', bytes, 'base64url')}"`;
}

/** The suffix a compressed variant's tag carries; comparisons ignore it (same entity, other coding). */
export const GZIP_TAG_SUFFIX = '-gzip';

const GZIP_SUFFIX_AT_END = new RegExp(`${GZIP_TAG_SUFFIX}$`);
const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/** The tags of an If-None-Match / If-Match header: `*`, or a list of quoted tags, weak or strong. */
export function parseEntityTags(header: string): '*' | { weak: boolean; opaque: string }[] {
  if (header.trim() === '*') return '*';
  const tags: { weak: boolean; opaque: string }[] = [];
  for (const match of header.matchAll(ENTITY_TAG)) {
    tags.push({ weak: match[1] !== undefined, opaque: (match[2] ?? '').replace(GZIP_SUFFIX_AT_END, '') });
  }
  return tags;
}

const opaqueOf = (tag: string) => tag.replace(/^W\//, '').replace(/^"|"$/g, '').replace(GZIP_SUFFIX_AT_END, '');

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored. */
export function matchesIfNoneMatch(header: string, currentTag: string): boolean {
  // What a client revalidating almost always sends: the very tag the 200 carried.
  if (header === currentTag) return true;
  const tags = parseEntityTags(header);
  if (tags === '*') return true;
  return tags.some((tag) => tag.opaque === opaqueOf(currentTag));
}

/** If-Match uses the strong comparison (RFC 9110 13.1.1): a weak tag never matches. */
export function matchesIfMatch(header: string, currentTag: string): boolean {
  const tags = parseEntityTags(header);
  if (tags === '*') return true;
  return tags.some((tag) => !tag.weak && tag.opaque === opaqueOf(currentTag));
}

/**
 * Refuses a write whose If-Match does not name the current representation: 412 with the error body,
 * before anything is written. A write without If-Match is allowed (the conventions do not require it).
 */
export function assertIfMatch(header: string, currentTag: string): void {
  if (header.trim() === '') return;
  if (!matchesIfMatch(header, currentTag)) {
    throw preconditionFailed('the resource has changed since the If-Match tag was read; GET it again and retry');
  }
}
