import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';

export interface RawRequest {
  readonly method: string;
  /** Sent as given: no normalisation, no encoding. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Buffer;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/**
 * One HTTP request with exactly the method, path, headers and body given (fetch and supertest refuse
 * or rewrite some of them), on a fresh connection, bounded in time: a server that does not answer
 * within `timeoutMs` fails the request instead of hanging the suite.
 */
export function sendRaw(baseUrl: string, spec: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  const url = new URL(baseUrl);
  // A body is always framed by its length: Node would send a GET's body unframed (no length, not
  // chunked), which is malformed HTTP; that belongs to the test of Node-level errors, not this fuzz.
  const headers =
    spec.body === undefined ? spec.headers : { ...spec.headers, 'Content-Length': String(spec.body.length) };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: spec.method,
        path: spec.path,
        headers: headers as OutgoingHttpHeaders,
        agent: false,
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(spec.body);
  });
}

/** A one-line reproduction of a request: the curl command that sends the same bytes. */
export function curlOf(baseUrl: string, spec: RawRequest): string {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const headers = Object.entries(spec.headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value as string]).map((one) => `-H ${quote(`${name}: ${one}`)}`),
  );
  const body =
    spec.body === undefined ? '' : ` --data-binary @<(printf %s ${quote(spec.body.toString('base64'))} | base64 -d)`;
  return `curl -sS -i -X ${quote(spec.method)} ${headers.join(' ')}${body} --path-as-is ${quote(`${baseUrl}${spec.path}`)}`;
}
