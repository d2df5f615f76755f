import type { Context, Middleware, Next } from 'koa';
import { toApiError } from '../errors/from-unknown.ts';
import type { ApiError } from '../errors/api-error.ts';
import { setJsonBody, setResponseHeader } from './headers.ts';
import type { DocumentFor } from '../errors/error-documents.ts';

export interface ErrorHandlerOptions {
  /** Called with every 500 error (with its cause) so the server can log it. Default: console.error. */
  report?: (error: ApiError, ctx: Context) => void;
  /**
   * The documentation address of an error code, rendered as `errors[].document` (see documentsAt()).
   * Default: none, and entries carry a document only when the error names one.
   */
  documentFor?: DocumentFor;
}

const defaultReport = (error: ApiError, ctx: Context) => {
  // The path is logged without its query string: a query may carry a credential (token_in_url).
  console.error(`${ctx.method} ${ctx.path} -> ${error.status}`, error.cause ?? error);
};

/**
 * The one place errors become responses: catches whatever the downstream middleware throws and
 * renders the conventions' error body with `Content-Type: application/json;charset=UTF-8`, the
 * error's own headers (Allow, WWW-Authenticate, Retry-After...), and no internals for a 5xx.
 *
 * @example
 * const app = new Koa();
 * app.use(errorHandler());
 * app.use(() => { throw badRequest('missing_field', 'item is required', { field: 'item' }); });
 */
export function errorHandler({ report = defaultReport, documentFor }: ErrorHandlerOptions = {}): Middleware {
  return async function errorHandlerMiddleware(ctx: Context, next: Next) {
    try {
      await next();
    } catch (thrown) {
      renderError(ctx, toApiError(thrown), report, documentFor);
    }
  };
}

const RENDERED_ERROR = Symbol('renderedError');

/** The error a response was rendered from, if it was: for the request log (its code, and a 500's cause). */
export function renderedErrorOf(ctx: Context): ApiError | undefined {
  return (ctx.state as { [RENDERED_ERROR]?: ApiError })[RENDERED_ERROR];
}

/** Writes an error onto the response. Exported for middleware that answers before `next()`. */
export function renderError(
  ctx: Context,
  error: ApiError,
  report: ErrorHandlerOptions['report'] = defaultReport,
  documentFor?: DocumentFor,
): void {
  (ctx.state as { [RENDERED_ERROR]?: ApiError })[RENDERED_ERROR] = error;
  // Only failures of the server itself are logged; 501 and 503 are answers, not faults.
  if (error.status === 500) report?.(error, ctx);
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers)) setResponseHeader(ctx, name, value);
  setJsonBody(ctx, error.toBody(documentFor));
}
