import { describe, expect, it } from 'vitest';
import { useCheckedApi } from '../../support/checked-client.ts';

describe('204 on PUT and PATCH with Prefer: return=minimal (RFC 7240)', () => {
  const { send } = useCheckedApi();

  const minimal = { Prefer: 'return=minimal' };

  it.each([['v1'], ['v2']])(
    '%s: PUT and PATCH of a collection item answer 204 with no body and write the change',
    async (version) => {
      const created = await send('post', `/${version}/orders`, { item: 'apples', quantity: 2 });
      const path = `/${version}/orders/${created.body.identity}`;

      const put = await send('put', path, { item: 'pears', quantity: 3 }, minimal);
      expect(put.status).toBe(204);
      expect(put.headers['preference-applied']).toBe('return=minimal');
      expect(put.text).toBe('');
      expect(put.headers['content-type']).toBeUndefined();
      expect((await send('get', path)).body).toMatchObject({ item: 'pears', quantity: 3 });

      const patch = await send('patch', path, { quantity: 9 }, { Prefer: 'handling=lenient, return="minimal"' });
      expect(patch.status).toBe(204);
      expect(patch.headers['preference-applied']).toBe('return=minimal');
      expect((await send('get', path)).body).toMatchObject({ item: 'pears', quantity: 9 });
    },
  );

  it('the default, and any other preference, stays 200 with the resource', async () => {
    const created = await send('post', '/v1/orders', { item: 'figs', quantity: 1 });
    const path = `/v1/orders/${created.body.identity}`;
    for (const headers of [
      {} as Record<string, string>,
      { Prefer: 'return=representation' },
      { Prefer: 'respond-async' },
      { Prefer: 'return=representation, return=minimal' },
    ]) {
      const response = await send('patch', path, { quantity: 2 }, headers);
      expect(response.status).toBe(200);
      expect(response.headers['preference-applied']).toBeUndefined();
      expect(response.body).toMatchObject({ order_id: created.body.identity, quantity: 2 });
    }
  });

  it('a refused write is still refused with the error body, whatever the preference', async () => {
    const created = await send('post', '/v1/orders', { item: 'kiwis', quantity: 1 });
    const response = await send('put', `/v1/orders/${created.body.identity}`, { item: 'kiwis', quantity: 0 }, minimal);
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ field: 'quantity' });
    expect(response.headers['preference-applied']).toBeUndefined();
  });

  it('PUT of an aggregate and of a setting answer 204 too', async () => {
    const user = await send('post', '/v2/users', { user_name: 'minimal-ann' });
    const profile = await send('put', `/v2/users/${user.body.identity}/profiles`, { full_name: 'Ann A' }, minimal);
    expect(profile.status).toBe(204);
    expect(profile.headers['preference-applied']).toBe('return=minimal');
    expect((await send('get', `/v2/users/${user.body.identity}/profiles`)).body).toEqual({ full_name: 'Ann A' });

    const lang = await send('put', '/settings/v2/gui/lang', { lang: 'fr-fr' }, minimal);
    expect(lang.status).toBe(204);
    expect((await send('get', '/settings/v2/gui/lang')).body).toEqual({ lang: 'fr-FR' });
  });
});
