import { fileURLToPath } from 'node:url';
import type request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import { OpenApiChecker } from './openapi-check.ts';
import { startApi, type TestApi } from './start-api.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The generated OpenAPI document of one version, as a file path. */
export const openApiDocumentOf = (version: string) =>
  fileURLToPath(new URL(`../../generated/openapi/${version}.json`, import.meta.url));

const checkers = new Map<string, OpenApiChecker>();
function checkerOf(version: string): OpenApiChecker {
  let checker = checkers.get(version);
  if (checker === undefined) checkers.set(version, (checker = new OpenApiChecker(openApiDocumentOf(version))));
  return checker;
}

/**
 * What the OpenAPI document of the request's version says is wrong with one response (empty when
 * it is what the document describes). For responses seen another way than through supertest, such
 * as on a raw socket: give the body parsed.
 */
export function documentProblems(
  method: string,
  path: string,
  response: { status: number; headers: Record<string, unknown>; body: unknown },
  resultFields?: string,
): string[] {
  const version = /\/(v\d+)(\/|$)/.exec(path)?.[1] ?? 'v1';
  return checkerOf(version).check(method, path, response, resultFields);
}

/**
 * A client of a test server that checks every response against the OpenAPI document of the
 * request's version, collecting what does not match in `problems` (expect it to stay empty).
 */
export function checkedClient(api: () => TestApi) {
  const problems: string[] = [];
  async function send(
    method: Method,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<request.Response> {
    const client = api();
    const test = (method === 'get' || method === 'delete' ? client[method](path) : client[method](path, body)).set(
      headers,
    );
    const response = await test;
    problems.push(...documentProblems(method, path, response, headers['X-Result-Fields']));
    return response;
  }
  return { send, problems };
}

/**
 * For a describe block: starts the example API before its tests (with `env`), gives a checked
 * client, and at the end fails on any response the OpenAPI documents do not describe, then stops it.
 */
export function useCheckedApi(env: Record<string, string> = {}) {
  let api: TestApi | undefined;
  const current = () => {
    if (api === undefined) throw new Error('the API starts in beforeAll');
    return api;
  };
  const client = checkedClient(current);
  beforeAll(async () => {
    api = await startApi({ env });
  });
  afterAll(async () => {
    expect(client.problems).toEqual([]);
    await api?.close();
  });
  return { api: current, send: client.send };
}
