import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openApiDocuments } from '../../../codegen/emit/emit-openapi.ts';
import { loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { resolveModel } from '../../../codegen/model/index.ts';
import { flattenRoutes } from '../../../codegen/routes/index.ts';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));

/** Every object of a document that holds a `$ref` into its components, each object once. */
function referenceObjects(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value !== 'object' || value === null) return found;
  if (typeof (value as { $ref?: unknown }).$ref === 'string' && Object.keys(value).length === 1) found.add(value);
  for (const member of Object.values(value)) referenceObjects(member, found);
  return found;
}

// A document of 1,000 collections holds hundreds of thousands of references to its components; one
// object per distinct reference keeps the generator's heap, and the garbage collector's copying, small.
describe('the OpenAPI documents as the generator builds them', () => {
  it('share one frozen object for each component reference', async () => {
    const definitions = await loadDefinitions(REPOSITORY);
    const model = resolveModel(definitions);
    const documents = openApiDocuments(model, flattenRoutes(model), definitions);
    for (const { version, document } of documents) {
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
});
