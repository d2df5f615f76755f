/** A response the ceiling server replays byte for byte. */
export interface CapturedResponse {
  readonly key: string;
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly bodyBase64: string;
}

/**
 * Which captured response answers a request: method, path, whether it is a revalidation
 * (If-None-Match) and whether the client takes gzip. Shared by the capture and the ceiling server.
 */
export function replayKey(method: string, path: string, revalidation: boolean, gzip: boolean): string {
  return `${method} ${path}${revalidation ? ' if-none-match' : ''}${gzip ? ' gzip' : ''}`;
}
