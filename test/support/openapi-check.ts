import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { JSON_MEDIA_TYPE } from '../../codegen/openapi/media-type.ts';

/** The JSON media type as a JSON Pointer segment. */
const MEDIA_POINTER = JSON_MEDIA_TYPE.replaceAll('~', '~0').replaceAll('/', '~1');

type Json = Record<string, any>;

/**
 * Checks real responses against a generated OpenAPI document: the path and method are declared,
 * the status is declared, every required declared header is present, and the body matches the
 * declared schema (ajv, JSON Schema 2020-12, the dialect OpenAPI 3.1 uses).
 */
export class OpenApiChecker {
  readonly #document: Json;
  readonly #ajv: Ajv2020;
  readonly #paths: { pattern: RegExp; template: string }[];

  constructor(documentPath: string) {
    this.#document = JSON.parse(readFileSync(documentPath, 'utf8')) as Json;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.#ajv);
    this.#ajv.addSchema(this.#document, 'openapi.json');
    this.#paths = Object.keys(this.#document.paths as Json).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[()]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /**
   * Problems with one response; an empty list when it is what the document says. `resultFields`: the
   * request's X-Result-Fields, whose answer holds only the fields it names, as the parameter says, even
   * members the representation otherwise always has (`required`).
   */
  check(
    method: string,
    url: string,
    response: { status: number; headers: Record<string, unknown>; body: unknown; text?: string },
    resultFields?: string,
  ): string[] {
    const path = new URL(url, 'http://x').pathname;
    const where = `${method.toUpperCase()} ${path} → ${response.status}`;
    const template = this.#paths.find((candidate) => candidate.pattern.test(path))?.template;
    if (template === undefined) return [`${where}: path not in the document`];
    const operation = (this.#document.paths as Json)[template]?.[method.toLowerCase()] as Json | undefined;
    if (operation === undefined) return [`${where}: method not in the document`];
    // A status not listed is what the operation's `default` response, if it has one, describes.
    const key =
      operation.responses?.[String(response.status)] === undefined && operation.responses?.default !== undefined
        ? 'default'
        : String(response.status);
    let declared = operation.responses?.[key] as Json | undefined;
    if (declared === undefined) return [`${where}: status not declared`];
    declared = this.#resolve(declared);
    const problems: string[] = [];
    for (const [name, header] of Object.entries((declared.headers ?? {}) as Json)) {
      const resolved = this.#resolve(header as Json);
      if (resolved.required === true && response.headers[name.toLowerCase()] === undefined)
        problems.push(`${where}: missing header ${name}`);
    }
    const schema = declared.content?.[JSON_MEDIA_TYPE]?.schema as Json | undefined;
    if (schema !== undefined && response.status !== 304) {
      const validate = this.#ajv.compile({
        $ref: `openapi.json#${pointerTo(template, method, key, declared === operation.responses[key] ? undefined : operation.responses[key].$ref)}`,
      });
      const selected = new Set((resultFields ?? '').split(',').map((name) => name.trim()));
      const errors = (validate(response.body) ? [] : (validate.errors ?? [])).filter(
        (error) =>
          resultFields === undefined ||
          error.keyword !== 'required' ||
          selected.has(String((error.params as { missingProperty?: unknown }).missingProperty)),
      );
      if (errors.length > 0) problems.push(`${where}: body does not match: ${this.#ajv.errorsText(errors)}`);
    }
    return problems;
  }

  #resolve(node: Json): Json {
    let current = node;
    while (typeof current.$ref === 'string') {
      current = (current.$ref as string)
        .slice(2)
        .split('/')
        .reduce((value: Json, key) => value[key.replaceAll('~1', '/').replaceAll('~0', '~')], this.#document);
    }
    return current;
  }
}

/** The JSON pointer of a response's body schema, through a shared response when it is one. */
function pointerTo(template: string, method: string, status: string, sharedRef: string | undefined): string {
  if (sharedRef !== undefined) return `${sharedRef.slice(1)}/content/${MEDIA_POINTER}/schema`;
  const escaped = template.replaceAll('~', '~0').replaceAll('/', '~1');
  return `/paths/${escaped}/${method.toLowerCase()}/responses/${status}/content/${MEDIA_POINTER}/schema`;
}
