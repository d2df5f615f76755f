export {
  jsonResponse,
  jsonResponseStep,
  LAST_MODIFIED_STATE,
  VERSIONED_WRITE_STATE,
  BODY_LENGTH_STATE,
  type JsonResponseOptions,
} from './json-response.ts';
export { presentationOf, serializeJson, type Presentation } from './serialize.ts';
export { compression, compressionStep, type CompressionOptions } from './compression.ts';
export { serverHeaders, serverHeadersStep, type ServerHeadersOptions } from './server-headers.ts';
export { conventionalResponse, type ConventionalResponseOptions } from './conventional-response.ts';
export { presentationHeaders } from './presentation-headers.ts';
export { setVersionBody, versionTagOf } from './version-tag.ts';
