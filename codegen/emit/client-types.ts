import type { GlobalContext, OpenAPI3 } from 'openapi-typescript';
import type { JsonSchema } from '../openapi/index.ts';

/**
 * The TypeScript types openapi-typescript writes for a document, as `openapiTS(document)` with its
 * default options gives them, without the Redocly lint and bundle it runs first: our documents are
 * built in memory, self-contained (every `$ref` points inside them) and linted by the project's own
 * rules, so that second reading, most of the time openapiTS() takes, would find nothing to do.
 * Its context is openapiTS()'s own, option for option (the type requires each one); the transforms
 * never read `redoc`, which only the skipped lint and bundle use. Compared with openapiTS()'s text in
 * test/codegen/emit/client-types.test.ts, so an upgrade that changes that context fails there.
 */
export async function clientTypesText(document: JsonSchema): Promise<string> {
  const { astToString, resolveRef, scanDiscriminators, transformSchema } = await import('openapi-typescript');
  const schema = document as unknown as OpenAPI3;
  const context: GlobalContext = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: true,
    discriminators: scanDiscriminators(schema, {}),
    emptyObjectsUnknown: false,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: undefined as unknown as GlobalContext['redoc'],
    silent: true,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref) => resolveRef(schema, $ref, { silent: true }),
  };
  return astToString(transformSchema(schema, context));
}
