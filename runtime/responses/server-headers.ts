import type { Context, Middleware } from 'koa';
import { setResponseHeader } from '../http/headers.ts';
import { stepMiddleware, type ResponseStep } from '../http/response-step.ts';

export interface ServerHeadersOptions {
  /** The Server header's value. Default `conventional-api`. */
  server?: string;
  /** X-Powered-By's value; not sent unless given. */
  poweredBy?: string;
}

/**
 * Rewrites the Server header to a value you choose, sends X-Powered-By only when configured, and
 * `X-Content-Type-Options: nosniff` always (JSON must never be sniffed into HTML).
 *
 * @example
 * app.use(serverHeaders({ server: 'orders-api', poweredBy: 'conventional-api' }));
 */
export function serverHeaders(options: ServerHeadersOptions = {}): Middleware {
  return stepMiddleware(serverHeadersStep(options));
}

/** serverHeaders() as a step of conventionalResponse(). */
export function serverHeadersStep({ server = 'conventional-api', poweredBy }: ServerHeadersOptions = {}): ResponseStep {
  return {
    enter(ctx: Context) {
      setResponseHeader(ctx, 'Server', server);
      setResponseHeader(ctx, 'X-Content-Type-Options', 'nosniff');
      // Nothing else sends X-Powered-By (neither Node nor Koa), so unless configured there is none.
      if (poweredBy !== undefined) setResponseHeader(ctx, 'X-Powered-By', poweredBy);
    },
  };
}
