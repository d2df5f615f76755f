export { ApiError, MAX_ERROR_ENTRIES, type ApiErrorOptions, type ErrorBody, type ErrorEntry } from './api-error.ts';
export * from './factories.ts';
export { toApiError } from './from-unknown.ts';
export { DependencyUnavailableError, dependencyFaultError, dependencyFaultOf, type DependencyFault } from './dependency-faults.ts';
export { documentsAt, type DocumentFor } from './error-documents.ts';
