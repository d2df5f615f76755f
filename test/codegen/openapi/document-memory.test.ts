import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocuments } from '../../../codegen/emit/emit-openapi.ts';
import { loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { resolveModel } from '../../../codegen/model/index.ts';
import { flattenRoutes } from '../../../codegen/routes/index.ts';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));

// V8's own answer to how an object holds its integer-like keys ('200', '404'): in a dictionary, or
// in an array as long as the largest of them.
setFlagsFromString('--allow-natives-syntax');
const hasDictionaryElements = new Function('object', 'return %HasDictionaryElements(object)') as (
  object: object,
) => boolean;
setFlagsFromString('--no-allow-natives-syntax');

async function exampleDocuments() {
  const definitions = await loadDefinitions(REPOSITORY);
  const model = resolveModel(definitions);
  return openApiDocuments(model, flattenRoutes(model), definitions);
}

/** Every object of a value that passes the test, each object once however often it is shared. */
function objectsWhere(
  value: unknown,
  test: (object: object) => boolean,
  found = new Set<object>(),
  seen = new Set<object>(),
) {
  if (typeof value !== 'object' || value === null || seen.has(value)) return found;
  seen.add(value);
  if (test(value)) found.add(value);
  for (const member of Object.values(value)) objectsWhere(member, test, found, seen);
  return found;
}

/** An object holding a `$ref` into the components, and nothing else. */
const isReference = (object: object) =>
  typeof (object as { $ref?: unknown }).$ref === 'string' && Object.keys(object).length === 1;

/** An object (not an array) with an integer-like key, such as an operation's responses. */
const isStatusKeyed = (object: object) =>
  !Array.isArray(object) && Object.keys(object).some((key) => /^(0|[1-9][0-9]*)$/.test(key));

// A document of 1,000 collections holds hundreds of thousands of references to its components and
// 16,000 operations' responses: how each is held in memory decides the generator's heap, and how much
// its garbage collector copies.
describe('the OpenAPI documents as the generator builds them', () => {
  let documents: Awaited<ReturnType<typeof exampleDocuments>>;
  beforeAll(async () => {
    documents = await exampleDocuments();
  });

  it('share one frozen object for each component reference', async () => {
    for (const { version, document } of documents) {
      const objects = [...objectsWhere(document, isReference)] as { $ref: string }[];
      const distinct = new Set(objects.map((object) => object.$ref));
      expect(distinct.size, version).toBeGreaterThan(10);
      expect(objects.length, version).toBe(distinct.size);
      expect(
        objects.every((object) => Object.isFrozen(object)),
        version,
      ).toBe(true);
    }
  });

  it('keep the members keyed by status in a dictionary, not in an array as long as the largest status', async () => {
    for (const { version, document } of documents) {
      const keyed = [...objectsWhere(document, isStatusKeyed)];
      expect(keyed.length, version).toBeGreaterThan(100);
      const backedByArrays = keyed.filter((object) => !hasDictionaryElements(object));
      expect(
        backedByArrays.map((object) => Object.keys(object).join(',')),
        version,
      ).toEqual([]);
    }
  });
});
