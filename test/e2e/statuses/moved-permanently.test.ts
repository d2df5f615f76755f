import { describe, expect, it } from 'vitest';
import { useCheckedApi } from '../../support/checked-client.ts';

describe('301 Moved Permanently at a former path (trades, formerly deals)', () => {
  const { api, send } = useCheckedApi();

  it.each([['v1'], ['v2']])(
    '%s: GET of the former collection, list form and item paths answers 301 with Location and the link body',
    async (version) => {
      const created = await send('post', `/${version}/trades`, { trade_name: 'moved' });
      const id = created.body.identity as number;
      for (const [former, current] of [
        [`/${version}/deals`, `/${version}/trades`],
        [`/${version}/deals/(list)`, `/${version}/trades/(list)`],
        [`/${version}/deals/${id}`, `/${version}/trades/${id}`],
        [`/${version}/deals?trade_name=moved&limit=5`, `/${version}/trades?trade_name=moved&limit=5`],
      ]) {
        const response = await send('get', former!);
        expect(response.status).toBe(301);
        const href = `${api().url}${current}`;
        expect(response.headers.location).toBe(href);
        expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
        expect(response.body).toEqual({ rel: 'self', href });
      }
    },
  );

  it('following the redirect reaches the resource', async () => {
    const created = await send('post', '/v1/trades', { trade_name: 'followed' });
    const moved = await send('get', `/v1/deals/${created.body.identity}`);
    const followed = await fetch(moved.headers.location!, { headers: api().headers });
    expect(followed.status).toBe(200);
    expect(await followed.json()).toMatchObject({ trade_id: created.body.identity, trade_name: 'followed' });
  });

  it('writes to a former path are not redirected: 405 with Allow: GET, HEAD, OPTIONS and the error body, nothing written', async () => {
    const post = await api().post('/v1/deals', { trade_name: 'lost' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(post.body.errors[0]).toMatchObject({ code: 'method_not_allowed' });
    const put = await api().put('/v1/deals/1', { trade_name: 'lost' });
    expect(put.status).toBe(405);
    expect((await send('get', '/v1/trades?trade_name=lost')).body).toEqual([]);
  });

  it.each([['v1'], ['v2']])(
    '%s: the served document marks every operation of a former path deprecated, and none of the current one',
    async (version) => {
      const document = (await send('get', `/services/${version}/openapi`)).body as {
        paths: Record<
          string,
          Record<string, { deprecated?: boolean; responses: Record<string, { headers?: object }> }>
        >;
      };
      const former = Object.keys(document.paths).filter((path) => path.startsWith(`/${version}/deals`));
      expect(former.length).toBeGreaterThan(0);
      for (const path of former) {
        for (const [method, operation] of Object.entries(document.paths[path]!)) {
          expect(operation.deprecated, `${method} ${path}`).toBe(true);
          // Not a deprecated version: no Deprecation or Sunset header is promised.
          for (const response of Object.values(operation.responses))
            expect(Object.keys(response.headers ?? {}), `${method} ${path}`).not.toContain('Deprecation');
        }
      }
      for (const path of Object.keys(document.paths).filter((candidate) =>
        candidate.startsWith(`/${version}/trades`),
      )) {
        for (const [method, operation] of Object.entries(document.paths[path]!))
          expect(operation.deprecated, `${method} ${path}`).toBeUndefined();
      }
    },
  );

  it('a former path still needs the credentials the current one needs', async () => {
    const response = await api().raw().get('/v1/deals').set('User-Agent', 'moved-test');
    expect(response.status).toBe(401);
  });
});
