import { request as httpRequest } from 'node:http';

export interface SlowRequest {
  /** Sends the rest of the body. */
  finish(): void;
  /** The response's status and body, or `closed` when the server closed the connection first. */
  readonly outcome: Promise<{ status: number; body: string } | 'closed'>;
}

/**
 * A POST whose JSON body is sent in two parts: the first five bytes now, the rest on finish() (or
 * never: a stalled upload). The request is in flight on the server from the first part on.
 */
export function slowPost(url: URL, headers: Record<string, string>, body: unknown): SlowRequest {
  const text = JSON.stringify(body);
  const req = httpRequest(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) },
  });
  const outcome = new Promise<{ status: number; body: string } | 'closed'>((resolve) => {
    req.on('response', (res) => {
      let received = '';
      res.on('data', (chunk: Buffer) => (received += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: received }));
      res.on('error', () => resolve('closed'));
    });
    req.on('error', () => resolve('closed'));
  });
  req.write(text.slice(0, 5));
  return { finish: () => req.end(text.slice(5)), outcome };
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
