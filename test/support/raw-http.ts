import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as the bytes on the wire showed it. */
export interface RawResponse {
  readonly status: number;
  /** Header names lowercase. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a raw connection saw: every response in order (interim ones included), and whether the server closed it. */
export interface RawExchange {
  readonly text: string;
  readonly responses: readonly RawResponse[];
  readonly closedByServer: boolean;
}

/** Opens a TCP connection to the host and port of `url`, resolved once connected. */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends `parts` on a fresh connection (a number between them is a pause in ms) and reads until the
 * server closes the connection or `waitMs` pass after the last part.
 */
export async function rawExchange(
  url: string,
  parts: readonly (string | number)[],
  waitMs = 3_000,
): Promise<RawExchange> {
  const socket = await openSocket(url);
  let text = '';
  let closedByServer = false;
  const closed = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('end', () => (closedByServer = true));
    socket.on('close', () => resolve());
  });
  for (const part of parts) {
    if (typeof part === 'number') await new Promise((resolve) => setTimeout(resolve, part));
    else if (!socket.destroyed) socket.write(part);
  }
  const timer = setTimeout(() => socket.destroy(), waitMs);
  await closed;
  clearTimeout(timer);
  return { text, responses: parseResponses(text), closedByServer };
}

/** Splits raw bytes into responses: interim (1xx) ones have no body; others are read by Content-Length. */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const status = Number(statusLine!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = status < 200 ? 0 : Number(headers['content-length'] ?? rest.length);
    const bodyStart = headEnd + 4;
    const bodyBytes = Buffer.from(rest.slice(bodyStart), 'utf8').subarray(0, length);
    const body = bodyBytes.toString('utf8');
    responses.push({ status, headers, body });
    rest = rest.slice(bodyStart + body.length);
  }
  return responses;
}
