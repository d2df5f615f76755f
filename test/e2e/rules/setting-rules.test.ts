import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentProblems } from '../../support/checked-client.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issueToken } from '../../support/token-cli.ts';

/**
 * The example's notes/layout setting keeps columns to the grid view, on PUT and PATCH (its rules), and
 * its writes need the scope notes:write (its scopes): a refused write answers the rule's error and
 * leaves the caller's value as it was.
 */
describe('rules on a setting: the check of PUT and PATCH, with the caller', () => {
  let api: TestApi;
  let token: string;
  const problems: string[] = [];
  beforeAll(async () => {
    api = await startApi();
    token = issueToken(api.databaseUrl, 'layout-writer', { user: 'lin', scopes: ['notes:write'] });
  });
  afterAll(async () => {
    expect(problems).toEqual([]);
    await api.close();
  });

  const send = async (method: 'get' | 'put' | 'patch', path: string, body?: unknown) => {
    const test = api
      .raw()
      [method](path)
      .set({ 'User-Agent': 'setting-rules-test/1.0', Authorization: `Bearer ${token}` });
    const response = await (body === undefined ? test : test.send(body as object));
    problems.push(...documentProblems(method, path, response));
    return response;
  };

  it.each([['v1'], ['v2']])('%s: a value the rule accepts is stored and read back', async (version) => {
    const path = `/settings/${version}/notes/layout`;
    expect((await send('put', path, { view: 'grid', columns: 3 })).body).toEqual({ view: 'grid', columns: 3 });
    expect((await send('get', path)).body).toEqual({ view: 'grid', columns: 3 });
    expect((await send('patch', path, { columns: 4 })).body).toEqual({ view: 'grid', columns: 4 });
  });

  it('PUT refused by the rule: 422 columns_need_grid naming columns, and the stored value is unchanged', async () => {
    const path = '/settings/v1/notes/layout';
    await send('put', path, { view: 'grid', columns: 2 });
    const refused = await send('put', path, { view: 'list', columns: 2 });
    expect(refused.status).toBe(422);
    expectErrorBody(refused, 'columns_need_grid', 'columns');
    expect(refused.body.errors[0].resource).toBe('notes/layout');
    expect((await send('get', path)).body).toEqual({ view: 'grid', columns: 2 });
  });

  it('PATCH is judged on the value as it will be stored: view list with the stored columns is refused', async () => {
    const path = '/settings/v1/notes/layout';
    await send('put', path, { view: 'grid', columns: 5 });
    const refused = await send('patch', path, { view: 'list' });
    expect(refused.status).toBe(422);
    expectErrorBody(refused, 'columns_need_grid', 'columns');
    expect((await send('get', path)).body).toEqual({ view: 'grid', columns: 5 });
    // Clearing the columns in the same PATCH makes the list view acceptable.
    expect((await send('patch', path, { view: 'list', columns: null })).body).toEqual({ view: 'list' });
  });

  it('a PUT replaces the whole value: columns left out are cleared, so the rule lets the list view through', async () => {
    const path = '/settings/v1/notes/layout';
    await send('put', path, { view: 'grid', columns: 6 });
    expect((await send('put', path, { view: 'list' })).body).toEqual({ view: 'list' });
  });
});
