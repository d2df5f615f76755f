import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnvironment } from '@convapi/runtime';
import { launchHeadlessChromium, type HeadlessBrowser } from '../../support/headless-chromium.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { describeNeeding } from '../../support/describe-needing.ts';
import { CHROMIUM } from '../../support/system-packages.ts';
import { scrollThroughOperations } from '../../support/swagger-ui-page.ts';

/** Where the screenshots go (.gitignore covers it). */
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/docs/', import.meta.url));

describe('DOCS_ACCESS', () => {
  it('is token by default, public when asked, and anything else stops the server from starting', () => {
    expect(configFromEnvironment({}).docsAccess).toBe('token');
    expect(configFromEnvironment({ DOCS_ACCESS: 'public' }).docsAccess).toBe('public');
    expect(() => configFromEnvironment({ DOCS_ACCESS: 'open' })).toThrow(ConfigError);
  });
});

describeNeeding(CHROMIUM, 'the docs page, opened in headless Chromium', () => {
  let browser: HeadlessBrowser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchHeadlessChromium();
  }, 60_000);
  afterAll(async () => browser?.close());

  /**
   * Opens a version's docs page, scrolls through it as a reader would (Swagger UI draws a long list of
   * operations only near the viewport), and returns the page's heading text, every operation and tag
   * heading drawn on the way and every URL the page loaded.
   */
  async function open(api: TestApi, version: string, screenshot: string) {
    const page = await browser.context.newPage();
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(request.url()));
    const response = await page.goto(`${api.url}/services/${version}/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.information-container').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: `${ARTIFACTS}${screenshot}` });
    const text = await page.locator('body').innerText();
    const { operations, tagHeadings } = await scrollThroughOperations(page);
    await page.close();
    return { text, operations, tagHeadings, loaded };
  }

  /** Every operation of a served document, as the docs page names its block: operations-<tag>-<operationId>. */
  async function operationBlocksOf(api: TestApi, version: string, headers: Record<string, string>): Promise<string[]> {
    const document = await api.raw().get(`/services/${version}/openapi`).set(headers).expect(200);
    const paths = document.body.paths as Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    return Object.values(paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.operationId !== undefined)
      .map((operation) => `operations-${operation.tags?.[0] ?? 'default'}-${operation.operationId}`)
      .sort();
  }

  it('with DOCS_ACCESS=public, shows every operation of v1 with no token, every file from the server itself', async () => {
    const api = await startApi({ env: { DOCS_ACCESS: 'public' } });
    try {
      const { text, operations, tagHeadings, loaded } = await open(api, 'v1', 'v1-public.png');
      expect(text).toContain('Conventional example API v1');
      expect(tagHeadings).toContain('orders Orders: what a trade refers to.');
      expect(operations.map((operation) => operation.id).sort()).toEqual(
        await operationBlocksOf(api, 'v1', { 'User-Agent': 'docs-test/1.0' }),
      );
      const orders = operations.map((operation) => operation.summary).join('\n');
      for (const [method, path, summary] of [
        ['GET', '/v1/orders', 'List orders'],
        ['POST', '/v1/orders', 'Create an order'],
        ['GET', '/v1/orders/{order_id}', 'Read one order'],
        ['PATCH', '/v1/orders/{order_id}', 'Update part of an order'],
        ['DELETE', '/v1/orders/{order_id}', 'Delete an order'],
      ] as const) {
        expect(orders).toMatch(new RegExp(`${method}\\s+${path.replace(/[{}()]/g, '\\$&')}\\s+${summary}`));
      }
      expect(orders).toContain('listOrders');
      expect(loaded.filter((url) => !url.startsWith(`${api.url}/`) && !url.startsWith('data:'))).toEqual([]);
      expect(loaded).toContain(`${api.url}/services/v1/openapi`);
      // The served document says so: its own operations need no token, and answer neither 401 nor 403.
      const document = await api.raw().get('/services/v1/openapi').set({ 'User-Agent': 'docs-test/1.0' }).expect(200);
      expect(document.body.paths['/services/v1/openapi'].get.security).toEqual([{ user_agent: [] }]);
      expect(Object.keys(document.body.paths['/services/v1/openapi'].get.responses)).not.toContain('401');
      expect(document.body.paths['/v1/orders'].get.security).toBeUndefined();
      await api.raw().get('/v1/orders').set({ 'User-Agent': 'docs-test/1.0' }).expect(401);
    } finally {
      await api.close();
    }
    // The bundle parses a document of some two hundred operations, then the page is scrolled through.
  }, 120_000);

  it('by default needs the token (the page, its files and the document), and shows v2 to a browser that sends it', async () => {
    const api = await startApi();
    try {
      const bare = { 'User-Agent': 'docs-test/1.0' };
      for (const path of ['/services/v2/docs', '/services/v2/docs/swagger-ui-bundle.js', '/services/v2/openapi']) {
        const refused = await api.raw().get(path).set(bare);
        expect(refused.status, path).toBe(401);
        expect(refused.body.errors[0].code).toBe('missing_token');
      }
      await browser.context.setExtraHTTPHeaders({ Authorization: api.headers.Authorization! });
      const { text, operations } = await open(api, 'v2', 'v2-token.png');
      expect(text).toContain('Conventional example API v2');
      expect(operations.map((operation) => operation.id).sort()).toEqual(
        await operationBlocksOf(api, 'v2', api.headers),
      );
      expect(operations.map((operation) => operation.summary).join('\n')).toContain('/v2/orders/{order_id}');
    } finally {
      await browser.context.setExtraHTTPHeaders({});
      await api.close();
    }
  }, 120_000);
});
