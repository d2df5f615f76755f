export { ApiError, MAX_ERROR_ENTRIES, type ApiErrorOptions, type ErrorBody, type ErrorEntry } from './api-error.ts';
export {
  badRequest,
  conflict,
  forbidden,
  httpVersionNotSupported,
  locked,
  methodNotAllowed,
  notAcceptable,
  notFound,
  notImplemented,
  payloadTooLarge,
  preconditionFailed,
  repeatedParameter,
  searchTimedOut,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
  unprocessable,
  unsupportedMediaType,
} from './factories.ts';
export { toApiError } from './from-unknown.ts';
export {
  DependencyUnavailableError,
  dependencyFaultError,
  dependencyFaultOf,
  type DependencyFault,
} from './dependency-faults.ts';
export { documentsAt, type DocumentFor } from './error-documents.ts';
export { isRefusal, refusalAsApiError } from './rule-error.ts';
