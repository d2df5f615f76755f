/** One request to a test server with a caller's bearer token, as JSON; redirects are answered, not followed. */
export interface CallAs {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** What came back: the status, headers, the text and, when there is one, the parsed body. */
export interface Answered {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

/** Sends `call` to the server at `url` as the holder of `token`, naming itself `userAgent`. */
export async function sendAs(url: string, token: string, userAgent: string, call: CallAs): Promise<Answered> {
  const response = await fetch(`${url}${call.path}`, {
    method: call.method,
    redirect: 'manual',
    headers: {
      'User-Agent': userAgent,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      ...call.headers,
    },
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text === '' ? undefined : JSON.parse(text) };
}
