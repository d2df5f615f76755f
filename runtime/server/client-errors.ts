import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from '../node/http.ts';
import type { Socket } from 'node:net';
import { ApiError, httpVersionNotSupported, type DocumentFor } from '../errors/index.ts';
import { JSON_CONTENT_TYPE } from '../http/media-types.ts';
import { serializeJson } from '../responses/serialize.ts';

export interface ClientErrorOptions {
  /** The Server header, as every other response carries it. Default `conventional-api`. */
  readonly server?: string;
  /** The documentation address of each error code (`errors[].document`). */
  readonly documentFor?: DocumentFor;
}

/**
 * What Node itself refuses before any request reaches Koa (the parser's `clientError` codes), as
 * the conventions' errors. Anything else the parser refuses is a malformed request: 400.
 */
const NODE_REFUSALS: Readonly<Record<string, readonly [number, string, string]>> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'the request did not arrive in time; send it again'],
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'the request headers are larger than the server accepts'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    'payload_too_large',
    'the chunk extensions of the request body are larger than the server accepts',
  ],
};

/** The versions of HTTP/1 framing the server speaks, as a request line names them. */
const SPOKEN_VERSION = /^HTTP\/1\.[01]$/;

/**
 * Whether the parser's HPE_INVALID_VERSION is about the version itself: it also reports a request line
 * naming HTTP/1.1 but ended by a bare LF, a framing error (400), not a version the server lacks (505).
 */
function namesUnspokenVersion(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): boolean {
  const packet = error.rawPacket?.toString('latin1') ?? '';
  const requestLine = packet.split('\n', 1)[0]!.replace(/\r$/, '');
  const version = requestLine.slice(requestLine.lastIndexOf(' ') + 1);
  return !SPOKEN_VERSION.test(version);
}

/** The ApiError for a `clientError` of Node's HTTP parser or connection checks. */
export function clientErrorOf(error: NodeJS.ErrnoException): ApiError {
  if (error.code === 'HPE_INVALID_VERSION') {
    if (namesUnspokenVersion(error)) return httpVersionNotSupported();
    return new ApiError(400, 'malformed_request', 'every line of the request head must end with CR LF');
  }
  const [status, code, message] = NODE_REFUSALS[error.code ?? ''] ?? [
    400,
    'malformed_request',
    'the request is not well-formed HTTP/1.1',
  ];
  return new ApiError(status, code, message);
}

interface ClosingErrorResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** An error as a response that closes its connection: the body, and the headers every response carries. */
function closingErrorResponse(
  error: ApiError,
  { server = 'conventional-api', documentFor }: ClientErrorOptions,
): ClosingErrorResponse {
  const body = serializeJson(error.toBody(documentFor), { pretty: true });
  return {
    status: error.status,
    headers: {
      // The error's own headers (Retry-After...), then those every response carries.
      ...error.headers,
      Server: server,
      'Content-Type': JSON_CONTENT_TYPE,
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Content-Type-Options': 'nosniff',
      'X-Pretty-Print': 'true',
      // Whatever the client sends next on this connection would be read as a new request: close it.
      Connection: 'close',
    },
    body,
  };
}

/** The raw bytes of an error response that closes its connection, for a socket no ServerResponse owns. */
export function rawErrorResponse(error: ApiError, options: ClientErrorOptions = {}): string {
  const { status, headers, body } = closingErrorResponse(error, options);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Gives every answer Node writes on its own the conventions' error body, the Server header and
 * `Connection: close`: a request it cannot parse (400), headers too large (431), a request whose
 * headers or body did not arrive within the timeouts (408), an HTTP version it does not speak (505),
 * and an `Expect` other than `100-continue` (417). Without this Node sends a bare status line.
 *
 * Nothing is half-written: the error is written only while no response has begun on the socket,
 * then the connection is closed, so a handler still waiting for the body never writes after it.
 *
 * @example
 * const server = createServer(app.callback());
 * answerClientErrors(server, { server: 'orders-api' });
 */
export function answerClientErrors(server: Server, options: ClientErrorOptions = {}): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset or a closed socket has no one to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight === undefined || inFlight === null || !inFlight.headersSent) {
      socket.end(rawErrorResponse(clientErrorOf(error), options));
      // end() lets the bytes go out; a client that never reads them cannot hold the socket open.
      setTimeout(() => socket.destroy(), 1_000).unref();
    } else {
      socket.destroy();
    }
  });
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const refusal = new ApiError(
      417,
      'expectation_failed',
      'the only expectation the server meets is Expect: 100-continue',
      { field: 'Expect' },
    );
    const { status, headers, body } = closingErrorResponse(refusal, options);
    response.writeHead(status, headers);
    response.end(body);
  });
}
