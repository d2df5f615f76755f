import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { clientTypesText } from '../../../codegen/emit/client-types.ts';
import { clientView } from '../../../codegen/emit/emit-client.ts';
import type { JsonSchema } from '../../../codegen/openapi/index.ts';

const OPENAPI = fileURLToPath(new URL('../../../generated/openapi/', import.meta.url));
const documents = readdirSync(OPENAPI)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, JSON.parse(readFileSync(`${OPENAPI}${name}`, 'utf8')) as JsonSchema] as const);

/** What the example's documents may not hold: a default (optional or not, by option) and a discriminator. */
const SMALL: JsonSchema = {
  openapi: '3.1.0',
  info: { title: 'small', version: '1' },
  paths: {
    '/v1/pets/{pet_id}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'pet_id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'A pet',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'kind' },
      },
      Cat: { type: 'object', properties: { kind: { type: 'string' }, lives: { type: 'integer', default: 9 } } },
      Dog: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, good: { type: 'boolean' } } },
    },
  },
};

// The generated client's types skip openapiTS()'s Redocly lint and bundle and call its transform
// with openapiTS()'s own options: the text must be what openapiTS() itself writes, on every
// document the example publishes (whole, and in the client's view of it).
describe('the client types, written without openapiTS()', () => {
  it.each([...documents, ['a small document with a default and a discriminator', SMALL] as const])(
    'are what openapiTS() writes for %s',
    async (_name, document) => {
      for (const view of [clientView(document), document]) {
        const expected = astToString(await openapiTS(structuredClone(view) as never, { silent: true }));
        expect(await clientTypesText(structuredClone(view))).toBe(expected);
      }
    },
  );
});
