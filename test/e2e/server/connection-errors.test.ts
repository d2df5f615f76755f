import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentProblems } from '../../support/checked-client.ts';
import { openSocket, rawExchange, type RawExchange } from '../../support/raw-http.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';

const DOCS = 'https://docs.example/errors/{code}';

/** The one error response Node's own refusals now send: error body, Server, Connection: close, then the close. */
function expectErrorAndClose(exchange: RawExchange, status: number, code: string) {
  expect(exchange.responses).toHaveLength(1);
  const [response] = exchange.responses;
  expect(response!.status).toBe(status);
  expect(response!.headers['content-type']).toBe('application/json;charset=UTF-8');
  expect(response!.headers.server).toBe('conventional-api');
  expect(response!.headers.connection).toBe('close');
  const body = JSON.parse(response!.body) as {
    message: string;
    errors: { code: string; message: string; document?: string }[];
  };
  expect(body.message).toBeTypeOf('string');
  expect(body.errors[0]!.code).toBe(code);
  expect(body.errors[0]!.document).toBe(`https://docs.example/errors/${code}`);
  expect(exchange.closedByServer).toBe(true);
}

/** A refusal of a request whose method and path the documents describe is one of the statuses they list for it, as they describe it. */
function expectDocumented(exchange: RawExchange, method: string, path: string) {
  const [response] = exchange.responses;
  expect(documentProblems(method, path, { ...response!, body: JSON.parse(response!.body) })).toEqual([]);
}

describe('what Node answers before Koa sees the request', () => {
  let api: TestApi;
  let host: string;
  beforeAll(async () => {
    api = await startApi({ env: { REQUEST_TIMEOUT_MS: '600', HEADERS_TIMEOUT_MS: '400', ERROR_DOCS_URL: DOCS } });
    host = `Host: ${new URL(api.url).host}\r\n`;
  });
  afterAll(() => api.close());

  const authorised = () => `User-Agent: raw-test\r\nAuthorization: ${api.headers.Authorization}\r\n`;

  it('headers that do not arrive in time: 408 request_timeout with the error body, connection closed', async () => {
    const started = Date.now();
    const exchange = await rawExchange(api.url, [`GET /v1/orders HTTP/1.1\r\n${host}User-Agent: slow`]);
    expectErrorAndClose(exchange, 408, 'request_timeout');
    expectDocumented(exchange, 'get', '/v1/orders');
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('a body that does not arrive in time: 408, and nothing of the request is written', async () => {
    const body = JSON.stringify({ item: 'never-finished', quantity: 1 });
    const exchange = await rawExchange(api.url, [
      `POST /v1/orders HTTP/1.1\r\n${host}${authorised()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.slice(0, 10),
    ]);
    expectErrorAndClose(exchange, 408, 'request_timeout');
    expectDocumented(exchange, 'post', '/v1/orders');
    const listed = await api.get('/v1/orders?item=never-finished');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
  });

  it('a request that is not HTTP: 400 malformed_request', async () => {
    expectErrorAndClose(await rawExchange(api.url, ['NOT HTTP AT ALL\r\n\r\n']), 400, 'malformed_request');
  });

  it('headers larger than Node accepts: 431 headers_too_large', async () => {
    const exchange = await rawExchange(api.url, [
      `GET /v1/orders HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expectErrorAndClose(exchange, 431, 'headers_too_large');
    expectDocumented(exchange, 'get', '/v1/orders');
  });

  it('an Expect other than 100-continue: 417 expectation_failed', async () => {
    const exchange = await rawExchange(api.url, [
      `GET /v1/orders HTTP/1.1\r\n${host}${authorised()}Expect: something-else\r\n\r\n`,
    ]);
    expectErrorAndClose(exchange, 417, 'expectation_failed');
    expectDocumented(exchange, 'get', '/v1/orders');
  });

  it('an HTTP version the parser refuses, or one it parses but the server does not speak: 505', async () => {
    for (const request of [
      `GET /v1/orders HTTP/1.2\r\n${host}\r\n`,
      `GET /v1/orders HTTP/2.0\r\n${host}${authorised()}\r\n`,
    ]) {
      const exchange = await rawExchange(api.url, [request]);
      expectErrorAndClose(exchange, 505, 'http_version_not_supported');
      expectDocumented(exchange, 'get', '/v1/orders');
    }
  });

  it('a request line ended by a bare LF: 400 malformed_request (a framing error, not a version the server lacks)', async () => {
    for (const request of [
      `GET /v1/orders HTTP/1.1\n${host}\n`,
      `GET /v1/orders HTTP/1.1\n${host.replace('\r\n', '\n')}\n`,
      `GET /v1/orders HTTP/1.0\n\n`,
    ]) {
      const exchange = await rawExchange(api.url, [request]);
      expectErrorAndClose(exchange, 400, 'malformed_request');
      expectDocumented(exchange, 'get', '/v1/orders');
    }
  });

  it('a request that arrives whole is served, however long its handler then takes to start', async () => {
    const exchange = await rawExchange(api.url, [
      `GET /v1/orders HTTP/1.1\r\n${host}`,
      100,
      `${authorised()}Connection: close\r\n\r\n`,
    ]);
    expect(exchange.responses[0]?.status).toBe(200);
  });

  it('errors answered by Koa carry errors[].document too', async () => {
    const response = await api.raw().get('/v1/orders');
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({
      code: 'missing_user_agent',
      document: 'https://docs.example/errors/missing_user_agent',
    });
  });
});

describe('the connection cap', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { MAX_CONNECTIONS: '2' } });
  });
  afterAll(() => api.close());

  it('beyond MAX_CONNECTIONS a new connection is closed at once; once one closes, new ones are served', async () => {
    const request = `GET /v1/orders HTTP/1.1\r\nHost: x\r\nUser-Agent: cap-test\r\nAuthorization: ${api.headers.Authorization}\r\n\r\n`;
    const held = [await openSocket(api.url), await openSocket(api.url)];
    // The two are counted once the server has accepted them: a request on each proves it.
    for (const socket of held) {
      const answered = new Promise<string>((resolve) =>
        socket.once('data', (chunk: Buffer) => resolve(chunk.toString())),
      );
      socket.write(request);
      expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    }
    const started = Date.now();
    const refused = await rawExchange(api.url, [request], 5_000);
    // Closed by the server at once, not left waiting until the test gives up.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(refused.responses).toHaveLength(0);
    expect(refused.text).toBe('');

    const closed = new Promise((resolve) => held[0]!.once('close', resolve));
    held[0]!.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const served = await rawExchange(api.url, [request.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')]);
    expect(served.responses[0]?.status).toBe(200);
    held[1]!.destroy();
  });
});
