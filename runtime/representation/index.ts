export { resourceUri, collectionUri, jobUri } from './uris.ts';
export { stripNulls } from './strip-nulls.ts';
export { resultFields, expansionRequested, project } from './request-headers.ts';
