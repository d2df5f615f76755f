import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { JSON_MEDIA_TYPE } from '../../../codegen/openapi/media-type.ts';

type Json = Record<string, any>;

const documentOf = (version: string): Json =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../generated/openapi/${version}.json`, import.meta.url)), 'utf8'),
  );

/**
 * Tools that call an API from its document alone (Dredd, mock servers, a docs page's Try it out) take
 * each parameter's value from its example: every parameter has one, and the schema accepts it.
 */
describe.each([['v1'], ['v2']])('every parameter of the %s document', (version) => {
  const document = documentOf(version);
  const ajv = new Ajv2020({ strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  const parameters = Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).flatMap(([method, operation]) =>
      ((operation as Json).parameters ?? []).map((parameter: Json) => {
        const resolved =
          typeof parameter.$ref === 'string'
            ? document.components.parameters[parameter.$ref.replace('#/components/parameters/', '')]
            : parameter;
        return { where: `${method.toUpperCase()} ${path} ${resolved.in} ${resolved.name}`, parameter: resolved };
      }),
    ),
  );

  it('is found', () => expect(parameters.length).toBeGreaterThan(100));

  it('has an example its schema accepts', () => {
    const problems = parameters.flatMap(({ where, parameter }) => {
      if (parameter.example === undefined) return [`${where}: no example`];
      const valid = ajv.validate(parameter.schema, parameter.example);
      return valid ? [] : [`${where}: example ${JSON.stringify(parameter.example)}: ${ajv.errorsText()}`];
    });
    expect(problems).toEqual([]);
  });

  it("gives a reference's filter an identifier of the referenced collection, as its own path parameter has", () => {
    const filter = document.paths[`/${version}/visits`].get.parameters.find(
      (parameter: Json) => parameter.name === 'products.contains',
    );
    // Products are named by the client (a SKU): a number would name no product.
    expect(filter.example).toBe(document.components.parameters.Sku.example);
    expect(filter.example).toBe('blue-mug');
  });

  it('names, in X-Result-Fields, the members what the operation answers always has', () => {
    for (const { where, parameter } of parameters.filter((entry) => entry.parameter.name === 'X-Result-Fields'))
      expect(typeof parameter.example, where).toBe('string');
    const one = document.paths[`/${version}/orders/{order_id}`].get.parameters.find(
      (parameter: Json) => parameter.name === 'X-Result-Fields',
    );
    // Every member the order's schema requires, so that the answer it selects still matches the schema.
    expect(one.example).toBe('order_id,item,quantity,created_at');
  });
});

/** The same tools send each request body as its example: every JSON body has one, and its schema accepts it. */
describe.each([['v1'], ['v2']])('every request body of the %s document', (version) => {
  const document = documentOf(version);
  const ajv = new Ajv2020({ strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema(document, 'openapi.json');
  const bodies = Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([, operation]) => (operation as Json).requestBody !== undefined)
      .map(([method, operation]) => ({
        where: `${method.toUpperCase()} ${path}`,
        pointer: `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/requestBody/content/${JSON_MEDIA_TYPE.replace('/', '~1')}`,
        media: (operation as Json).requestBody.content[JSON_MEDIA_TYPE] as Json,
      })),
  );

  it('is found', () => expect(bodies.length).toBeGreaterThan(30));

  it('has an example its schema accepts', () => {
    const problems = bodies.flatMap(({ where, pointer, media }) => {
      if (media.example === undefined) return [`${where}: no example`];
      const validate = ajv.compile({ $ref: `openapi.json#${pointer}/schema` });
      return validate(media.example)
        ? []
        : [`${where}: example ${JSON.stringify(media.example)}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(problems).toEqual([]);
  });
});
