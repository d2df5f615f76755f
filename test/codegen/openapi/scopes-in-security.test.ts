import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const documentOf = (version: string) =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../generated/openapi/${version}.json`, import.meta.url)), 'utf8'),
  );

/** Every operation of a document as `METHOD path` with the operation. */
const operationsOf = (document: any): [string, any][] =>
  Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, operation]): [string, any] => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );

describe("the OpenAPI documents state each operation's scopes in its security requirement", () => {
  it.each([['v1'], ['v2']])('%s: a scoped operation requires a bearer token holding its scopes', (version) => {
    const document = documentOf(version);
    expect(document.security).toEqual([{ bearer: [], user_agent: [] }]);
    const scoped = operationsOf(document).filter(([, operation]) => operation['x-scopes'] !== undefined);
    expect(scoped.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        `POST /${version}/notes`,
        `PATCH /${version}/notes/{note_id}`,
        `DELETE /${version}/notes/{note_id}`,
        `PUT /settings/${version}/notes/layout`,
      ]),
    );
    for (const [name, operation] of scoped)
      expect(operation.security, name).toEqual([{ bearer: operation['x-scopes'], user_agent: [] }]);
    expect(operationsOf(document).find(([name]) => name === `POST /${version}/notes`)![1].security).toEqual([
      { bearer: ['notes:write'], user_agent: [] },
    ]);
    // An operation that needs no scope keeps the document's requirement; an open one needs a User-Agent alone.
    const unscoped = operationsOf(document).find(([name]) => name === `GET /${version}/notes`)![1];
    expect(unscoped.security).toBeUndefined();
    const health = operationsOf(document).find(([name]) => name === `GET /services/${version}/health`)![1];
    expect(health.security).toEqual([{ user_agent: [] }]);
  });
});
