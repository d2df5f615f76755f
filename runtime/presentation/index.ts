export { jsonResponse, LAST_MODIFIED_STATE, BODY_LENGTH_STATE, type JsonResponseOptions } from './json-response.ts';
export { presentationOf, serializeJson, type Presentation } from './serialize.ts';
export { compression, type CompressionOptions } from './compression.ts';
export { serverHeaders, type ServerHeadersOptions } from './server-headers.ts';
