export { JSON_CONTENT_TYPE } from './media-types.ts';
export { negotiateJson, hasRequestBody, type NegotiateJsonOptions } from './negotiate-json.ts';
export { jsonBody, requestBody, type JsonBodyOptions } from './json-body.ts';
export {
  isRepeated,
  requestHeader,
  responseHeader,
  setJsonBody,
  setResponseHeader,
  JSON_SERIALISER_STATE,
  type JsonSerialiser,
} from './headers.ts';
export { stepMiddleware, type ResponseStep } from './response-step.ts';
export { supportedHttpVersion } from './http-version.ts';
export { requireHost } from './host-header.ts';
export { answerMinimal, answerWritten, preferencesOf, prefersMinimalReturn } from './prefer.ts';
export { answerRedirect, type LinkBody } from './redirect.ts';
export { processingUpdates, PROCESSING_AFTER_STATE, type ProcessingUpdatesOptions } from './processing.ts';
export {
  requestBounds,
  DEFAULT_MAX_HEADERS,
  DEFAULT_MAX_QUERY_PARAMETERS,
  type RequestBoundsOptions,
} from './request-bounds.ts';
export { errorHandler, renderError, renderedErrorOf, type ErrorHandlerOptions } from './error-handler.ts';
export { RequestDrain } from './drain.ts';
export { onResponseClose } from './close-listener.ts';
export {
  applyConnectionSettings,
  connectionSettingsFrom,
  connectionsCheckingInterval,
  DEFAULT_CONNECTION_SETTINGS,
  type ConnectionSettings,
  type WholeNumberReader,
} from './connection-settings.ts';
export {
  cors,
  corsOriginsFrom,
  DEFAULT_CORS_ALLOW_HEADERS,
  DEFAULT_CORS_EXPOSE_HEADERS,
  DEFAULT_CORS_MAX_AGE_SECONDS,
  DEFAULT_CORS_METHODS,
  type CorsOptions,
} from './cors.ts';
export { percentDecoded } from './query-encoding.ts';
