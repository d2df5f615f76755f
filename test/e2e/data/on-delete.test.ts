import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../../support/test-database.ts';
import { editFile, serveCopiedProject } from '../../support/temp-project.ts';

/** Comments that answer comments: deleting one deletes the answers, and theirs. */
const COMMENTS = `import { collection, field } from '@convapi/dsl';

/** Comments; one may answer another, and goes when the one it answers goes. */
export default collection({
  name: 'comments',
  identifier: { name: 'comment_id', type: 'integer' },
  fields: {
    text: field.string({ required: true, maxLength: 200 }),
    answers: field.reference('comments', { onDelete: 'cascade' }),
  },
  versions: { v1: {} },
});
`;

describe("a reference's onDelete, on a copy of the example API", () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${served.server.url}${path}`, {
      method,
      headers: served.headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const created = async (path: string, body: unknown): Promise<number> => {
    const response = await call('POST', path, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { identity: number }).identity;
  };

  beforeAll(async () => {
    served = await serveCopiedProject(
      (root) => {
        // A visit goes with its pet; a trade outlives its order, without it.
        editFile(root, 'definitions/visits.ts', (text) =>
          text.replace(
            "pet: field.reference('pets', { required: true, filterable: true })",
            "pet: field.reference('pets', { required: true, filterable: true, onDelete: 'cascade' })",
          ),
        );
        editFile(root, 'definitions/trades.ts', (text) =>
          text.replace(
            "order: field.reference('orders')",
            "order: field.reference('orders', { onDelete: 'set-null' })",
          ),
        );
        writeFileSync(join(root, 'definitions/comments.ts'), COMMENTS);
      },
      await newTestDatabase(),
    );
  }, 240_000);
  afterAll(async () => served?.stop());

  it("cascade: deleting a pet deletes its visits, in the same answer, and leaves other pets' visits", async () => {
    const rex = await created('/v1/pets', { pet_name: 'Rex' });
    const tom = await created('/v1/pets', { pet_name: 'Tom' });
    const visits = [
      await created('/v1/visits', { pet: rex, scheduled_at: '2026-12-02T09:30:00Z' }),
      await created('/v1/visits', { pet: rex, scheduled_at: '2026-12-03T09:30:00Z' }),
    ];
    const kept = await created('/v1/visits', { pet: tom, scheduled_at: '2026-12-04T09:30:00Z' });

    expect((await call('DELETE', `/v1/pets/${rex}`)).status).toBe(204);
    for (const visit of visits) expect((await call('GET', `/v1/visits/${visit}`)).status).toBe(404);
    expect((await call('GET', `/v1/visits/${kept}`)).status).toBe(200);
    const listed = (await (await call('GET', `/v1/visits?pet=${tom}`)).json()) as Array<{ visit_id: number }>;
    expect(listed.map((visit) => visit.visit_id)).toEqual([kept]);
  });

  it('set-null: deleting an order empties the reference of the trades that held it; they stay', async () => {
    const order = await created('/v1/orders', { item: 'mug', quantity: 1 });
    const trade = await created('/v1/trades', { trade_name: 'first', order });
    expect((await call('DELETE', `/v1/orders/${order}`)).status).toBe(204);
    const read = await call('GET', `/v1/trades/${trade}`);
    expect(read.status).toBe(200);
    const body = (await read.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ trade_name: 'first' });
    expect(body.order ?? null).toBeNull();
  });

  it('cascade along a chain and through a row that refers to itself: each row deleted once, the delete ends', async () => {
    const first = await created('/v1/comments', { text: 'first' });
    const answer = await created('/v1/comments', { text: 'answer', answers: first });
    const answerToAnswer = await created('/v1/comments', { text: 'answer to the answer', answers: answer });
    const alone = await created('/v1/comments', { text: 'alone' });
    expect((await call('PATCH', `/v1/comments/${alone}`, { answers: alone })).status).toBe(200);

    expect((await call('DELETE', `/v1/comments/${first}`)).status).toBe(204);
    for (const comment of [first, answer, answerToAnswer])
      expect((await call('GET', `/v1/comments/${comment}`)).status).toBe(404);
    expect((await call('GET', `/v1/comments/${alone}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/comments/${alone}`)).status).toBe(204);
    expect((await call('GET', `/v1/comments/${alone}`)).status).toBe(404);
  });

  it('the OpenAPI document says what a delete does to the rows referring to it, and lists 409 only where one restricts it', async () => {
    const document = (await (await call('GET', '/services/v1/openapi')).json()) as {
      paths: Record<string, Record<string, { description: string; responses: Record<string, unknown> }>>;
    };
    const deletePet = document.paths['/v1/pets/{pet_id}']!.delete!;
    expect(deletePet.description).toContain('The visits referring to it through pet are deleted with it.');
    expect(Object.keys(deletePet.responses)).not.toContain('409');
    const deleteOrder = document.paths['/v1/orders/{order_id}']!.delete!;
    expect(deleteOrder.description).toContain('The trades referring to it through order are left with no order.');
    expect(Object.keys(deleteOrder.responses)).not.toContain('409');
  });
});
