import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { authOf } from '../auth/bearer-auth.ts';
import { redactedQuery } from '../auth/token-in-url.ts';
import { onResponseClose, renderedErrorOf } from '../http/index.ts';
import { requestHeader, setResponseHeader } from '../http/headers.ts';
import { matchedRoute } from '../routing/route.ts';
import { assignRequestId, requestIdOf } from './request-id.ts';
import { infoLineWriter, memberKey, RecordObject, type RecordMembers } from './json-line-writer.ts';

export interface RequestLogOptions {
  readonly logger: Logger;
  /** Peers whose X-Request-Id is kept (the same TRUSTED_PROXIES as X-Forwarded-For). Default none. */
  readonly trustedProxies?: readonly string[];
}

/** What a response needs to be logged when it closes, kept on the response itself. */
const LOGGED = Symbol('requestLog');
interface Pending {
  readonly ctx: Context;
  readonly startedAt: number;
  /** The socket, kept: a response lets go of it once finished. */
  readonly socket: Socket;
  readonly bytesBefore: number;
}

/**
 * One log line per request, written when the response has been sent (or the client went away):
 * time, request id, method, path, query with credential values redacted, status (when one was
 * sent), duration in ms, response bytes (as written to the socket, headers included, so a gzipped
 * body counts as sent),
 * the client and user of the token, User-Agent, and the route template and family when one matched.
 * A 500 is logged at `error` with its cause's stack; every other status at `info`, with the error
 * code of a 4xx and no stack: a client's mistake is not the server's fault. Never a header, never a
 * token. Sets `X-Request-Id` on the response: the trusted proxy's id, or a new UUID.
 *
 * Written here over pino rather than with pino-http or koa-pino-logger: those log the request's
 * headers and full URL by default (the Authorization header, a credential in the query string) and
 * make a child logger per request; this needs neither, and reads the client from the token and the
 * route template from the router, which they cannot know.
 *
 * @example
 * app.use(requestLog({ logger: createLogger({ level: 'info' }), trustedProxies: ['10.0.0.1'] }));
 */
export function requestLog({ logger, trustedProxies = [] }: RequestLogOptions): Middleware {
  const infoEnabled = logger.isLevelEnabled('info');
  const lineWriter = infoLineWriter(logger);
  // One listener for every response, as the drain does: no closure per request.
  function responseClosed(this: ServerResponse & { [LOGGED]?: Pending }) {
    const pending = this[LOGGED];
    if (pending === undefined) return;
    this[LOGGED] = undefined;
    const error = renderedErrorOf(pending.ctx);
    const failed = error?.status === 500;
    if (!failed && !infoEnabled) return;
    if (!failed && lineWriter !== undefined) {
      describeRequest(lineWriter.open(), this, pending, error);
      lineWriter.close('request');
      return;
    }
    const line = new RecordObject();
    describeRequest(line, this, pending, error);
    if (failed) logger.error({ ...line.record, err: error!.cause ?? error }, 'request failed');
    else logger.info(line.record, 'request');
  }
  return function requestLogMiddleware(ctx: Context, next: Next) {
    const id = assignRequestId(ctx, trustedProxies);
    setResponseHeader(ctx, 'X-Request-Id', id);
    const res = ctx.res as ServerResponse & { [LOGGED]?: Pending };
    const socket = ctx.req.socket;
    res[LOGGED] = { ctx, startedAt: performance.now(), socket, bytesBefore: socket.bytesWritten };
    onResponseClose(res, responseClosed);
    return next();
  };
}

/** The request line's members (docs/operating.md, "Logs"), each made once. */
const MEMBER = {
  request_id: memberKey('request_id'),
  method: memberKey('method'),
  path: memberKey('path'),
  query: memberKey('query'),
  status: memberKey('status'),
  aborted: memberKey('aborted'),
  duration_ms: memberKey('duration_ms'),
  response_bytes: memberKey('response_bytes'),
  client: memberKey('client'),
  user: memberKey('user'),
  user_agent: memberKey('user_agent'),
  route: memberKey('route'),
  family: memberKey('family'),
  error_code: memberKey('error_code'),
} as const;

/** The request line's members, in order (docs/operating.md, "Logs"), to a JSON line's bytes or a record object alike. */
function describeRequest(
  line: RecordMembers,
  res: ServerResponse,
  { ctx, startedAt, socket, bytesBefore }: Pending,
  error: ReturnType<typeof renderedErrorOf>,
): void {
  const id = requestIdOf(ctx);
  if (id !== undefined) line.string(MEMBER.request_id, id);
  line.string(MEMBER.method, ctx.method);
  line.string(MEMBER.path, ctx.path);
  const query = redactedQuery(ctx);
  if (query !== '') line.string(MEMBER.query, query);
  // No status when none was sent: Koa's default 404 would say something that never happened.
  if (res.headersSent) line.number(MEMBER.status, ctx.status);
  // The connection closed before the whole response was written (client gone, shutdown deadline).
  if (!res.writableFinished) line.boolean(MEMBER.aborted, true);
  line.number(MEMBER.duration_ms, Math.round((performance.now() - startedAt) * 100) / 100);
  line.number(MEMBER.response_bytes, socket.bytesWritten - bytesBefore);
  const auth = authOf(ctx);
  if (auth !== undefined) {
    line.string(MEMBER.client, auth.client);
    if (auth.user !== undefined) line.string(MEMBER.user, auth.user);
  }
  line.string(MEMBER.user_agent, requestHeader(ctx, 'user-agent'));
  const route = matchedRoute(ctx);
  if (route !== undefined) {
    line.string(MEMBER.route, route.path);
    line.string(MEMBER.family, route.family);
  }
  if (error !== undefined) line.string(MEMBER.error_code, error.code);
}
