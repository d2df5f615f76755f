import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prettyJsonBytes } from '../../../codegen/emit/pretty-json.ts';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
const asJsonFile = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

describe('prettyJsonBytes()', () => {
  it("gives JSON.stringify(value, null, 2)'s bytes for each OpenAPI document of the example", () => {
    for (const version of ['v1', 'v2']) {
      const document = JSON.parse(readFileSync(`${REPOSITORY}generated/openapi/${version}.json`, 'utf8')) as unknown;
      expect(Buffer.concat(prettyJsonBytes(document)).equals(asJsonFile(document)), version).toBe(true);
    }
  });

  it('writes what JSON.stringify writes where the pieces are split: left-out members, empty and nested values, escapes', () => {
    const values: unknown[] = [
      {},
      [],
      'text',
      42,
      null,
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
      { only: undefined },
      { empty: {}, list: [], nested: { inner: {}, deeper: { a: [1, { b: 2 }] }, gone: undefined } },
      { 'line\nbreak': 'a "quoted"\nvalue', 'é ü 中文': ['\u2028', '\u{1F600}'], '': { '': '' } },
      { when: new Date(0), map: new Map([['a', 1]]), own: { toJSON: () => 'mine', hidden: 1 } },
      Object.assign(Object.create(null) as object, { bare: { x: 1 } }),
      [{ a: 1 }, [], {}],
    ];
    for (const value of values)
      expect(Buffer.concat(prettyJsonBytes(value)).toString('utf8'), String(JSON.stringify(value))).toBe(
        asJsonFile(value).toString('utf8'),
      );
  });

  it('gives a large document in pieces of about 64 KiB, their bytes joined the whole text', () => {
    const paths = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, index) => [`/v1/things-${index}`, { get: { summary: 'ß'.repeat(50), index } }]),
    );
    const document = { openapi: '3.1.0', paths };
    const pieces = prettyJsonBytes(document);
    expect(pieces.length).toBeGreaterThan(4);
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(65_536);
    expect(Buffer.concat(pieces).equals(asJsonFile(document))).toBe(true);
  });
});
