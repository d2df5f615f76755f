export { JSON_CONTENT_TYPE } from './media-types.ts';
export { negotiateJson, hasRequestBody, type NegotiateJsonOptions } from './negotiate-json.ts';
export { jsonBody, requestBody, type JsonBodyOptions } from './json-body.ts';
export { isRepeated, requestHeader, responseHeader, setJsonBody, setResponseHeader, JSON_SERIALISER_STATE, type JsonSerialiser } from './headers.ts';
export { stepMiddleware, type ResponseStep } from './response-step.ts';
export { supportedHttpVersion } from './http-version.ts';
export { answerMinimal, answerWritten, preferencesOf, prefersMinimalReturn } from './prefer.ts';
export { answerRedirect, type LinkBody } from './redirect.ts';
export { processingUpdates, PROCESSING_AFTER_STATE, type ProcessingUpdatesOptions } from './processing.ts';
