export {
  etagOf,
  parseEntityTags,
  matchesIfNoneMatch,
  matchesIfMatch,
  assertIfMatch,
  GZIP_TAG_SUFFIX,
} from './entity-tags.ts';
export { formatLastModified, parseModifiedSince, notModifiedSince } from './modified-since.ts';
export { cacheHeaders, cacheHeadersStep, DEFAULT_VARY, type CacheHeadersOptions } from './cache-headers.ts';
