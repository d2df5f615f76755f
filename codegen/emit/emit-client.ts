import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { JsonSchema } from '../openapi/index.ts';
import { clientTypesText } from './client-types.ts';
import { fileHeader } from './header.ts';
import type { GeneratedFile, SourceFileBuilder } from './source-file.ts';

export const clientTypesFileOf = (version: string) => `generated/client/${version}.ts`;
export const CLIENT_FILE = 'generated/client/index.ts';

/** One version's document, as the OpenAPI emitter built it. */
export interface VersionDocument {
  readonly version: string;
  readonly document: JsonSchema;
}

/**
 * The typed client of the API, made from the same documents the server serves: per version, the
 * types openapi-typescript writes from the document (generated/client/{version}.ts), and one module
 * (generated/client/index.ts) whose `createApiClient()` gives an openapi-fetch client per version
 * with Authorization and User-Agent set once. Nothing here calls HTTP itself: openapi-fetch does.
 * openapi-typescript is loaded only here (clientTypesText()), so `generate --check` on an unchanged
 * tree never pays for it.
 */
export async function emitClient(
  documents: readonly VersionDocument[],
  builder: SourceFileBuilder,
): Promise<GeneratedFile[]> {
  const types = await Promise.all(
    documents.map(async ({ version, document }) => ({
      path: clientTypesFileOf(version),
      text: `${fileHeader([`generated/openapi/${version}.json`, 'openapi-typescript'])}\n\n${await clientTypesText(clientView(document))}`,
    })),
  );
  return [
    ...types,
    clientIndex(
      documents.map(({ version }) => version),
      builder,
    ),
  ];
}

const CALLED_METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

/**
 * What the client's types need of a document: the operations a caller makes (HEAD and OPTIONS say
 * nothing a GET does not), their parameters, bodies and statuses; not the response headers, which
 * openapi-fetch leaves to `response.headers`. Half the text to type, half the time.
 */
export function clientView(document: JsonSchema): JsonSchema {
  const paths = document.paths as Record<string, Record<string, JsonSchema>>;
  const withoutHeaders = (responses: Record<string, JsonSchema>) =>
    Object.fromEntries(
      Object.entries(responses).map(([status, response]) => [
        status,
        '$ref' in response ? response : { ...response, headers: undefined },
      ]),
    );
  const components = document.components as Record<string, Record<string, JsonSchema>>;
  return {
    ...document,
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item)
            .filter(([method]) => CALLED_METHODS.has(method))
            .map(([method, operation]) => [
              method,
              { ...operation, responses: withoutHeaders(operation.responses as Record<string, JsonSchema>) },
            ]),
        ),
      ]),
    ),
    components: {
      ...components,
      headers: {},
      responses: Object.fromEntries(
        Object.entries(components.responses ?? {})
          .filter(([name]) => !name.startsWith('HeadError'))
          .map(([name, response]) => [name, { ...response, headers: undefined }]),
      ),
    },
  };
}

const typeName = (version: string) => `${version.toUpperCase()}Paths`;

function clientIndex(versions: readonly string[], builder: SourceFileBuilder): GeneratedFile {
  const statements: (string | StatementStructures)[] = [
    {
      kind: StructureKind.ImportDeclaration,
      defaultImport: 'createClient',
      namedImports: [
        { name: 'Client', isTypeOnly: true },
        { name: 'ClientOptions', isTypeOnly: true },
      ],
      moduleSpecifier: 'openapi-fetch',
    },
    ...versions.map((version): StatementStructures => ({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: [
        { name: 'components', alias: `${version.toUpperCase()}Components` },
        { name: 'operations', alias: `${version.toUpperCase()}Operations` },
        { name: 'paths', alias: typeName(version) },
      ],
      moduleSpecifier: `./${version}.ts`,
    })),
    `export type { ${versions.flatMap((version) => [`${version.toUpperCase()}Components`, `${version.toUpperCase()}Operations`, typeName(version)]).join(', ')} };`,
    {
      kind: StructureKind.Interface,
      docs: ['How to reach the API, and who calls it.'],
      isExported: true,
      name: 'ApiClientOptions',
      properties: [
        {
          name: 'baseUrl',
          isReadonly: true,
          type: 'string',
          docs: ['The BASE_URL of the server: `http://127.0.0.1:3000`.'],
        },
        {
          name: 'token',
          isReadonly: true,
          type: 'string',
          docs: [
            'The bearer token (`npm run -s token -- issue --client NAME`), sent as `Authorization: Bearer <token>`.',
          ],
        },
        {
          name: 'userAgent',
          isReadonly: true,
          type: 'string',
          docs: ['Names the client on every call (the conventions require it).'],
        },
        {
          name: 'fetch',
          isReadonly: true,
          hasQuestionToken: true,
          type: "ClientOptions['fetch']",
          docs: ['Another fetch, for tests or proxies. Default: the global fetch.'],
        },
      ],
    },
    {
      kind: StructureKind.Interface,
      docs: ['One openapi-fetch client per version of the API.'],
      isExported: true,
      name: 'ApiClient',
      properties: versions.map((version) => ({
        name: version,
        isReadonly: true,
        type: `Client<${typeName(version)}>`,
      })),
    },
    {
      kind: StructureKind.Function,
      docs: [
        [
          'A typed client of every version of the API, with Authorization and User-Agent set once.',
          '',
          '@example',
          "const api = createApiClient({ baseUrl: 'http://127.0.0.1:3000', token, userAgent: 'my-app/1.0' });",
          "const { data, error } = await api.v1.GET('/v1/orders/{order_id}', { params: { path: { order_id: 1 } } });",
        ].join('\n'),
      ],
      isExported: true,
      name: 'createApiClient',
      parameters: [{ name: 'options', type: 'ApiClientOptions' }],
      returnType: 'ApiClient',
      statements: [
        {
          kind: StructureKind.VariableStatement,
          declarationKind: VariableDeclarationKind.Const,
          declarations: [
            {
              name: 'clientOptions',
              type: 'ClientOptions',
              initializer:
                "{ baseUrl: options.baseUrl.replace(/\\/+$/, ''), headers: { Authorization: `Bearer ${options.token}`, 'User-Agent': options.userAgent }, ...(options.fetch === undefined ? {} : { fetch: options.fetch }) }",
            },
          ],
        },
        `return { ${versions.map((version) => `${version}: createClient<${typeName(version)}>(clientOptions)`).join(', ')} };`,
      ],
    },
  ];
  return builder.build(
    CLIENT_FILE,
    fileHeader(versions.map((version) => `generated/openapi/${version}.json`)),
    statements,
  );
}
