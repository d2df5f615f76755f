import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../../support/test-database.ts';
import { editFile, serveCopiedProject } from '../../support/temp-project.ts';
import { issueToken } from '../../support/token-cli.ts';

/**
 * Row access through an array of references, on a copy of the example API whose notes (each seen by
 * its owner, all by notes:admin) gain `related`, an array of references to other notes: a note the
 * caller may not see is, through the array, a note that does not exist.
 */
describe('an array of references to rows under a row rule', () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  const tokens: Record<string, string> = {};
  const call = (who: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${served.server.url}${path}`, {
      method,
      headers: { ...served.headers, Authorization: `Bearer ${tokens[who]}`, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const created = async (who: string, body: unknown): Promise<number> => {
    const response = await call(who, 'POST', '/v1/notes', body);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { identity: number }).identity;
  };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    served = await serveCopiedProject(
      (root) =>
        editFile(root, 'definitions/notes.ts', (text) =>
          text.replace(
            "about: field.reference('notes', { description: 'Another note this one follows up' }),",
            "about: field.reference('notes', { description: 'Another note this one follows up' }),\n    related: field.array(field.reference('notes'), { maxItems: 5 }),",
          ),
        ),
      databaseUrl,
    );
    tokens.ann = issueToken(databaseUrl, 'notes-app', { user: 'ann', scopes: ['notes:write'] });
    tokens.bob = issueToken(databaseUrl, 'notes-app', { user: 'bob', scopes: ['notes:write'] });
    tokens.admin = issueToken(databaseUrl, 'notes-admin', { user: 'root', scopes: ['notes:write', 'notes:admin'] });
    ids.ann = await created('ann', { owner: 'ann', title: 'ann’s' });
    ids.bob = await created('bob', { owner: 'bob', title: 'bob’s' });
    // The admin may write a note of Ann's naming one of Bob's.
    ids.both = await created('admin', { owner: 'ann', title: 'both', related: [ids.ann, ids.bob] });
  }, 240_000);
  afterAll(async () => served?.stop());

  it('a write naming a note the caller may not see is 422 reference_not_found at the item, as a missing one', async () => {
    const hidden = await call('ann', 'POST', '/v1/notes', { owner: 'ann', title: 'x', related: [ids.ann, ids.bob] });
    const missing = await call('ann', 'POST', '/v1/notes', { owner: 'ann', title: 'x', related: [ids.ann, 999_999] });
    for (const response of [hidden, missing]) {
      expect(response.status).toBe(422);
      const body = (await response.json()) as { errors: { code: string; field: string }[] };
      expect(body.errors[0]).toEqual(expect.objectContaining({ code: 'reference_not_found', field: 'related[1]' }));
    }
  });

  it('X-Expansion-Fields inlines the notes the caller may see; a hidden one stays its URI', async () => {
    const expand = { 'X-Expansion-Fields': 'true' };
    const asAnn = (await (await call('ann', 'GET', `/v1/notes/${ids.both}`, undefined, expand)).json()) as {
      related: unknown[];
    };
    expect(asAnn.related).toEqual([
      expect.objectContaining({ note_id: ids.ann, title: 'ann’s' }),
      `${served.server.url}/v1/notes/${ids.bob}`,
    ]);
    const listed = (await (await call('ann', 'GET', '/v1/notes?title=both', undefined, expand)).json()) as {
      related: unknown[];
    }[];
    expect(listed.map((note) => note.related)).toEqual([asAnn.related]);
    const asAdmin = (await (await call('admin', 'GET', `/v1/notes/${ids.both}`, undefined, expand)).json()) as {
      related: unknown[];
    };
    expect(asAdmin.related).toEqual([
      expect.objectContaining({ note_id: ids.ann }),
      expect.objectContaining({ note_id: ids.bob, title: 'bob’s' }),
    ]);
  });

  it('a note some array still names cannot be deleted, whoever can see the array (409)', async () => {
    const refused = await call('bob', 'DELETE', `/v1/notes/${ids.bob}`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('related');
  });
});
