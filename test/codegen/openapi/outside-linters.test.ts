import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { redoclyFindings, spectralFindings } from '../../support/openapi-linters.ts';

const documentOf = (version: string) =>
  fileURLToPath(new URL(`../../../generated/openapi/${version}.json`, import.meta.url));
const VERSIONS = [['v1'], ['v2']];

/** Every `$ref` of a document with where it is. */
function refsOf(node: unknown, at = '#'): { at: string; ref: string }[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => refsOf(item, `${at}/${index}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [{ at, ref: value }] : refsOf(value, `${at}/${key}`),
  );
}

/** Where a oneOf, anyOf or allOf has a single member (a schema written the long way round). */
function oneItemCompositions(node: unknown, at = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => oneItemCompositions(item, `${at}/${index}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => [
    ...(['oneOf', 'anyOf', 'allOf'].includes(key) && Array.isArray(value) && value.length === 1
      ? [`${at}/${key}`]
      : []),
    ...oneItemCompositions(value, `${at}/${key}`),
  ]);
}

describe('the generated OpenAPI documents, judged by tools nobody here wrote', () => {
  it.each(VERSIONS)('%s: Spectral (spectral:oas) reports 0 errors and 0 warnings', async (version) => {
    expect(await spectralFindings(documentOf(version))).toEqual([]);
  });

  it.each(VERSIONS)('%s: Redocly (recommended) reports 0 errors and 0 warnings', async (version) => {
    expect(await redoclyFindings(documentOf(version))).toEqual([]);
  });

  it('the linters do report a document that breaks their rules', async () => {
    // A copy of v1 without operationIds, tags and servers, and with a reference into a schema's properties.
    const document = JSON.parse(readFileSync(documentOf('v1'), 'utf8'));
    delete document.servers;
    delete document.paths['/v1/orders'].get.operationId;
    delete document.paths['/v1/orders'].get.tags;
    document.components.schemas.Job.properties.errors = { $ref: '#/components/schemas/Error/properties/errors' };
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'openapi-lint-')), 'broken.json');
    writeFileSync(path, JSON.stringify(document));
    const spectral = (await spectralFindings(path)).map((finding) => finding.rule);
    const redocly = (await redoclyFindings(path)).map((finding) => finding.rule);
    expect(spectral).toEqual(expect.arrayContaining(['operation-operationId', 'operation-tags', 'oas3-api-servers']));
    expect(redocly).toEqual(expect.arrayContaining(['operation-operationId', 'no-empty-servers']));
  });

  it.each(VERSIONS)(
    '%s: named component schemas only, no one-item oneOf, an operationId, tag and summary on every operation',
    (version) => {
      const document = JSON.parse(readFileSync(documentOf(version), 'utf8'));
      const refs = refsOf(document);
      expect(
        refs.filter(({ ref }) => !/^#\/components\/(schemas|responses|parameters|headers)\/[A-Za-z0-9-]+$/.test(ref)),
      ).toEqual([]);
      expect(oneItemCompositions(document)).toEqual([]);
      const ids: string[] = [];
      for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
        for (const [method, operation] of Object.entries<any>(item)) {
          expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
          expect(operation.tags, `${method} ${path}`).toHaveLength(1);
          expect(operation.summary, `${method} ${path}`).not.toBe('');
          ids.push(operation.operationId);
        }
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(
        expect.arrayContaining([
          'listOrders',
          'getOrder',
          'createOrder',
          'replaceOrder',
          'updateOrder',
          'deleteOrder',
          'getUserProfile',
          'setGuiLang',
          'enqueueQueuedJob',
          'search',
        ]),
      );
      expect(document.info.contact).toBeDefined();
      expect(document.info.license).toBeDefined();
      expect(document.components.schemas.ErrorEntry).toBeDefined();
      expect(document.components.schemas.Job.properties.errors).toEqual(
        expect.objectContaining({ type: 'array', items: { $ref: '#/components/schemas/ErrorEntry' } }),
      );
      // The definition's doc comment describes its tag (shown above its operations) and its schema.
      expect(document.tags.find((tag: { name: string }) => tag.name === 'orders').description).toBe(
        'Orders: what a trade refers to.',
      );
      expect(document.components.schemas[`Order${version.toUpperCase()}`].description).toBe(
        'Orders: what a trade refers to.',
      );
      expect(document.paths[`/${version}/orders`].get.description).toMatch(/^A page of orders/);
      expect(document.components.schemas[`GuiLang${version.toUpperCase()}`].properties.lang.description).toBe(
        'BCP 47 language tag, stored in canonical form',
      );
    },
  );

  it('501 is documented only where the definition marks an operation not implemented', () => {
    const text = readFileSync(documentOf('v1'), 'utf8');
    expect(text).not.toContain('Error501');
  });
});
