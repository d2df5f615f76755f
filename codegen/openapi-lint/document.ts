/** A JSON value of the document, with the path of keys that leads to it (where a finding is placed). */
export interface Located {
  readonly value: unknown;
  readonly at: readonly (string | number)[];
}

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A member of an object value, located. */
export function member(of: Located, key: string | number): Located {
  const value =
    isObject(of.value) || Array.isArray(of.value) ? (of.value as Record<string | number, unknown>)[key] : undefined;
  return { value, at: [...of.at, key] };
}

/**
 * Follows a local `$ref` (`#/components/schemas/Error`) to what it names, with that node's own path,
 * so a finding about a shared component is reported once, at the component. A chain of references is
 * followed up to a few steps; anything else is returned as it is.
 */
export function dereference(document: unknown, node: Located): Located {
  let current = node;
  for (let step = 0; step < 8 && isObject(current.value) && typeof current.value.$ref === 'string'; step++) {
    const ref = current.value.$ref;
    if (!ref.startsWith('#/')) break;
    const keys = ref
      .slice(2)
      .split('/')
      .map((key) => decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~'));
    let value: unknown = document;
    for (const key of keys)
      value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined) break;
    current = { value, at: keys };
  }
  return current;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of the document: its path, method and node. */
export interface Operation {
  readonly path: string;
  readonly method: (typeof HTTP_METHODS)[number];
  readonly node: Located;
}

export function operationsOf(document: JsonObject): Operation[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    isObject(item)
      ? HTTP_METHODS.filter((method) => isObject(item[method])).map((method) => ({
          path,
          method,
          node: { value: item[method], at: ['paths', path, method] },
        }))
      : [],
  );
}

/** The names of the headers a response documents, lowercase. */
export function headerNames(response: Located): Set<string> {
  const headers = isObject(response.value) && isObject(response.value.headers) ? response.value.headers : {};
  return new Set(Object.keys(headers).map((name) => name.toLowerCase()));
}

/**
 * An operation that opts out of authentication in so many words: `security: []`, or requirements
 * that name only the User-Agent header (an apiKey scheme `in: header`, `name: User-Agent`, which is
 * how a document states that every call names its client without a token): a health probe a load
 * balancer calls. It is outside the rules about the bearer scheme and call limits, which are about
 * the API's calls; every other rule still applies to it.
 */
export function isDeclaredPublic(operation: Operation, document: JsonObject): boolean {
  const security = isObject(operation.node.value) ? operation.node.value.security : undefined;
  if (!Array.isArray(security)) return false;
  const schemes = isObject(document.components) ? document.components.securitySchemes : undefined;
  const namesUserAgent = (name: string) => {
    const scheme = isObject(schemes) ? schemes[name] : undefined;
    return (
      isObject(scheme) &&
      scheme.type === 'apiKey' &&
      scheme.in === 'header' &&
      String(scheme.name).toLowerCase() === 'user-agent'
    );
  };
  return security.every((requirement) => isObject(requirement) && Object.keys(requirement).every(namesUserAgent));
}
