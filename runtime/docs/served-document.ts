/** Who may read the API's documents and docs page: token holders only (the default), or anyone (DOCS_ACCESS). */
export type DocsAccess = 'token' | 'public';

type Json = Record<string, any>;

/**
 * A generated document as this server serves it: `servers` names the server's own BASE_URL, so a
 * tool given the served document needs no base URL by hand; with DOCS_ACCESS=public, the document's
 * own operations say they need no token (and cannot answer 401 or 403): their security is the
 * document's without its bearer scheme (what remains is the User-Agent every request sends).
 */
export function servedDocument(
  document: unknown,
  baseUrl: string,
  access: DocsAccess,
  documentPath: (version: string) => string,
): unknown {
  if (document === null || typeof document !== 'object') return document;
  const served: Json = { ...document, servers: [{ url: baseUrl, description: 'This server (its BASE_URL).' }] };
  if (access !== 'public') return served;
  const path = documentPath(String(served.info?.version));
  const item = served.paths?.[path] as Json | undefined;
  if (item === undefined) return served;
  const schemes = (served.components?.securitySchemes ?? {}) as Json;
  const withoutToken = ((served.security ?? []) as Json[])
    .map((requirement) =>
      Object.fromEntries(Object.entries(requirement).filter(([name]) => schemes[name]?.scheme !== 'bearer')),
    )
    .filter((requirement) => Object.keys(requirement).length > 0);
  const open = (operation: Json) => {
    const { '401': _unauthorized, '403': _forbidden, ...responses } = operation.responses as Json;
    return { ...operation, security: withoutToken, responses };
  };
  return {
    ...served,
    paths: {
      ...served.paths,
      [path]: Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, open(operation as Json)])),
    },
  };
}
