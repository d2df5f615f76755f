import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../../support/describe-needing.ts';
import { freePort } from '../../support/free-port.ts';
import { launchHeadlessChromium, type HeadlessBrowser } from '../../support/headless-chromium.ts';
import { until } from '../../support/poll.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { CHROMIUM } from '../../support/system-packages.ts';
import { scrollToOperation } from '../../support/swagger-ui-page.ts';

/** A page on an origin of its own (another loopback port): the front-end that calls the API. */
async function pageServer(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>front-end</title><p>front-end</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** What a page's script sees of the calls it makes with fetch(): statuses and the headers it may read. */
interface SeenByPage {
  readonly created: { status: number; location: string | null; etag: string | null };
  readonly list: { status: number; total: string | null; link: string | null; remaining: string | null };
  readonly patched: { status: number };
  readonly stale: { status: number };
}

describeNeeding(CHROMIUM, 'a page on another origin, in headless Chromium', () => {
  let browser: HeadlessBrowser;
  let allowed: { origin: string; server: Server };
  let refused: { origin: string; server: Server };
  let api: TestApi;
  beforeAll(async () => {
    [allowed, refused] = await Promise.all([pageServer(), pageServer()]);
    api = await startApi({ env: { CORS_ORIGINS: allowed.origin } });
    browser = await launchHeadlessChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    allowed?.server.close();
    refused?.server.close();
  });

  it('creates, lists and updates with a token and If-Match, reading Location, ETag, X-Total-Count and Link', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${allowed.origin}/`);
    const seen = await page.evaluate(
      async ({ url, authorization }): Promise<SeenByPage> => {
        const headers = { Authorization: authorization, 'Content-Type': 'application/json' };
        const post = await fetch(`${url}/v1/orders`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ item: 'mug', quantity: 1 }),
        });
        const location = post.headers.get('Location');
        const read = await fetch(location!, { headers });
        const etag = read.headers.get('ETag');
        const list = await fetch(`${url}/v1/orders?limit=1`, { headers });
        const patch = (tag: string) =>
          fetch(location!, {
            method: 'PATCH',
            headers: { ...headers, 'If-Match': tag },
            body: JSON.stringify({ quantity: 2 }),
          });
        const patched = await patch(etag!);
        const stale = await patch(etag!);
        return {
          created: { status: post.status, location, etag },
          list: {
            status: list.status,
            total: list.headers.get('X-Total-Count'),
            link: list.headers.get('Link'),
            remaining: list.headers.get('X-RateLimit-Remaining'),
          },
          patched: { status: patched.status },
          stale: { status: stale.status },
        };
      },
      { url: api.url, authorization: api.headers.Authorization! },
    );
    await page.close();
    expect(seen.created.status).toBe(201);
    expect(seen.created.location).toMatch(new RegExp(`^${api.url}/v1/orders/\\d+$`));
    expect(seen.list).toMatchObject({
      status: 200,
      total: expect.stringMatching(/^\d+$/),
      remaining: expect.stringMatching(/^\d+$/),
    });
    expect(seen.list.link).toContain('rel="first"');
    expect(seen.patched.status).toBe(200);
    expect(seen.stale.status).toBe(412);
  });

  it('cannot call it from an origin CORS_ORIGINS does not list: the browser refuses the answer', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${refused.origin}/`);
    const outcome = await page.evaluate(
      async ({ url, authorization }) => {
        try {
          const response = await fetch(`${url}/v1/orders`, { headers: { Authorization: authorization } });
          return `answered ${response.status}`;
        } catch (error) {
          return (error as Error).name;
        }
      },
      { url: api.url, authorization: api.headers.Authorization! },
    );
    await page.close();
    expect(outcome).toBe('TypeError');
  });
});

describeNeeding(CHROMIUM, "the docs page's Try it out, opened under another host name than BASE_URL", () => {
  /**
   * Opens v1's docs page at `pageUrl` in a browser of its own (nothing cached from another server),
   * runs Try it out on GET /services/v1/health (no token, a small answer), and answers the text of the
   * response it shows.
   */
  async function tryItOut(pageUrl: string): Promise<string> {
    const browser = await launchHeadlessChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(pageUrl);
      const operation = await scrollToOperation(page, 'health', 'getHealth');
      await operation.locator('.opblock-summary').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      const userAgent = operation.locator('input[placeholder="User-Agent"]');
      if ((await userAgent.count()) > 0) await userAgent.fill('docs-page');
      await operation.getByRole('button', { name: 'Execute' }).click();
      // What Swagger UI shows under "Server response": the status and body, or why the fetch failed.
      const shown = await until(
        async () => (await operation.innerText()).split('Server response')[1] ?? '',
        (text) => /Response body|Failed to fetch/.test(text),
        20_000,
      );
      return shown.trim();
    } finally {
      await browser.close();
    }
  }

  it('works when that origin is allowed, and fails when it is not', async () => {
    const port = await freePort();
    // BASE_URL names 127.0.0.1; the page is opened at localhost, another origin for the browser.
    const env = { PORT: String(port), DOCS_ACCESS: 'public', BASE_URL: `http://127.0.0.1:${port}` };
    const pageUrl = `http://localhost:${port}/services/v1/docs`;
    const withCors = await startApi({ env: { ...env, CORS_ORIGINS: `http://localhost:${port}` } });
    try {
      expect(await tryItOut(pageUrl)).toMatch(/^Code\s+Details\s+200\s+Response body/);
    } finally {
      await withCors.close();
    }
    const without = await startApi({ env });
    try {
      expect(await tryItOut(pageUrl)).toContain('Failed to fetch');
    } finally {
      await without.close();
    }
  }, 240_000);
});
