import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

type Json = unknown;

const folder = fileURLToPath(new URL('../../../generated/openapi/', import.meta.url));
const documents = readdirSync(folder).filter((name) => name.endsWith('.json'));

/** Every `$ref` of a JSON value, with the JSON pointer of the object holding it. */
function referencesOf(value: Json, at = '#'): { at: string; ref: string }[] {
  if (value === null || typeof value !== 'object') return [];
  const found: { at: string; ref: string }[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string') found.push({ at, ref: member });
    else found.push(...referencesOf(member, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`));
  }
  return found;
}

/** What a local JSON pointer (`#/components/schemas/PetV2`) points at in the document, or undefined. */
function resolve(document: Json, ref: string): Json {
  if (!ref.startsWith('#')) return undefined;
  const steps = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((step) => decodeURIComponent(step).replaceAll('~1', '/').replaceAll('~0', '~'));
  let value: Json = document;
  for (const step of steps) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string, Json>)[step];
  }
  return value;
}

describe('every $ref of every generated OpenAPI document resolves inside it', () => {
  it('finds the documents', () => expect(documents.length).toBeGreaterThan(0));

  it.each(documents)('%s', (name) => {
    const document = JSON.parse(readFileSync(`${folder}${name}`, 'utf8')) as Json;
    const references = referencesOf(document);
    expect(references.length).toBeGreaterThan(0);
    const dangling = references
      .filter(({ ref }) => resolve(document, ref) === undefined)
      .map(({ at, ref }) => `${at}: ${ref}`);
    expect(dangling).toEqual([]);
  });
});
