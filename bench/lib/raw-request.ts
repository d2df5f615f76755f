import { request } from 'node:http';

export interface RawResponse {
  readonly status: number;
  /** Header name/value pairs as sent, in order. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body bytes exactly as sent (still gzipped when the server gzipped them). */
  readonly body: Buffer;
  header(name: string): string | undefined;
}

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * One request with node:http rather than fetch: fetch would decompress gzip and merge headers, and
 * the ceiling server must replay the exact bytes the generated server sent.
 */
export function rawRequest(baseUrl: string, { method, path, headers = {}, body }: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let index = 0; index < res.rawHeaders.length; index += 2)
          pairs.push([res.rawHeaders[index]!, res.rawHeaders[index + 1]!]);
        resolve({
          status: res.statusCode ?? 0,
          headers: pairs,
          body: Buffer.concat(chunks),
          header: (name) => pairs.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1],
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The request, failing with the response's own words when the status is not the expected one. */
export async function expectStatus(baseUrl: string, spec: RawRequest, status: number): Promise<RawResponse> {
  const response = await rawRequest(baseUrl, spec);
  if (response.status !== status) {
    throw new Error(
      `${spec.method} ${new URL(spec.path, baseUrl).href} answered ${response.status}, expected ${status}: ${response.body.toString('utf8').slice(0, 400)}`,
    );
  }
  return response;
}
