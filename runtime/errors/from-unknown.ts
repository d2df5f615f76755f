import { ApiError } from './api-error.ts';
import { dependencyFaultError } from './dependency-faults.ts';
import { isRefusal, refusalAsApiError } from './rule-error.ts';

interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  message?: unknown;
}

/**
 * Turns anything thrown into an ApiError. A business rule's refusal keeps its status, code and
 * field. Errors from Koa and its ecosystem (http-errors) keep their 4xx status with a generic code; an engine's error that reports a fault of the store (unreachable,
 * full, read-only...) becomes 503 dependency_unavailable with Retry-After; everything else becomes a 500 whose message says nothing of the
 * internals (the cause stays on the error for the server log).
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // A business rule's refusal (thrown from an own operation or a service): its own status and code.
  if (isRefusal(error)) return refusalAsApiError(error);
  const like = (typeof error === 'object' && error !== null ? error : {}) as HttpLikeError;
  const status = Number(like.status ?? like.statusCode);
  if (like.type === 'entity.too.large' || status === 413) {
    return new ApiError(413, 'payload_too_large', 'the request body is larger than the server accepts', {
      cause: error,
    });
  }
  const fault = dependencyFaultError('store', error);
  if (fault !== undefined) return fault;
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    const message =
      like.expose === true && typeof like.message === 'string' ? like.message : 'the request cannot be served';
    return new ApiError(status, 'bad_request', message, { cause: error });
  }
  return new ApiError(500, 'internal_error', 'the server failed to serve this request', { cause: error });
}
