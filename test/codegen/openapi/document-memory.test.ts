import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
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

/** Every object of a value whose keys include an integer-like one, each object once. */
function statusKeyedObjects(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value !== 'object' || value === null || found.has(value)) return found;
  if (!Array.isArray(value) && Object.keys(value).some((key) => /^(0|[1-9][0-9]*)$/.test(key))) found.add(value);
  for (const member of Object.values(value)) statusKeyedObjects(member, found);
  return found;
}

/** Every object of a document that holds a `$ref` into its components, each object once. */
function referenceObjects(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value !== 'object' || value === null) return found;
  if (typeof (value as { $ref?: unknown }).$ref === 'string' && Object.keys(value).length === 1) found.add(value);
  for (const member of Object.values(value)) referenceObjects(member, found);
  return found;
}

// A document of 1,000 collections holds hundreds of thousands of references to its components and
// 16,000 operations' responses: how each is held in memory decides the generator's heap, and how much
// its garbage collector copies.
describe('the OpenAPI documents as the generator builds them', () => {
  it('share one frozen object for each component reference', async () => {
    for (const { version, document } of await exampleDocuments()) {
      const objects = [...referenceObjects(document)] as { $ref: string }[];
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
    for (const { version, document } of await exampleDocuments()) {
      const keyed = [...statusKeyedObjects(document)];
      expect(keyed.length, version).toBeGreaterThan(100);
      const backedByArrays = keyed.filter((object) => !hasDictionaryElements(object));
      expect(
        backedByArrays.map((object) => Object.keys(object).join(',')),
        version,
      ).toEqual([]);
    }
  });
});
