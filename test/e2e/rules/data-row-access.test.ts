import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMOS } from '../../support/memo-definitions.ts';
import { serveCopiedProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';
import { sendAs } from '../../support/send-as.ts';

/**
 * Pins of memos: the create rule reads the pinned memo and counts memos through the data access (the
 * caller's rows), and counts every memo (`rows: 'all'`); the create effect renames the memo named by
 * `bump`. Each read or write the rule makes must see only what the caller's own requests would.
 */
const PINS = `import { collection, field, unprocessable } from '@convapi/dsl';
export default collection({
  name: 'pins',
  identifier: { name: 'pin_id', type: 'integer' },
  fields: {
    memo: field.integer({ required: true, min: 1 }),
    bump: field.integer({ min: 1 }),
    memos_seen: field.integer({ readOnly: true }),
    memos_in_all: field.integer({ readOnly: true }),
  },
  rules: {
    *create({ next, data }) {
      const memo = yield* data.of('memos').read(next.memo!);
      if (memo === undefined) throw unprocessable('memo_not_found', 'there is no such memo', { field: 'memo' });
      const seen = yield* data.of('memos').list();
      const all = yield* data.of('memos', { rows: 'all' }).list();
      return { memos_seen: seen.total, memos_in_all: all.total };
    },
  },
  effects: {
    *create({ row, data }) {
      if (row.bump !== undefined && row.bump !== null) yield* data.of('memos').update(row.bump, { title: 'bumped' });
    },
  },
  versions: { v1: {} },
});
`;

describe("a rule's data access reads and writes the caller's rows, unless it asks for every row", () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const MISSING = 424_242;

  const send = (who: string, method: string, path: string, body?: unknown) =>
    sendAs(served.server.url, tokens[who]!, 'data-row-access-test/1.0', { method, path, body });

  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    served = await serveCopiedProject((root) => {
      writeFileSync(join(root, 'definitions/memos.ts'), MEMOS);
      writeFileSync(join(root, 'definitions/pins.ts'), PINS);
    }, databaseUrl);
    tokens.ann = issueToken(databaseUrl, 'memo-app', { user: 'ann' });
    tokens.bob = issueToken(databaseUrl, 'memo-app', { user: 'bob' });
    ids.ann = (await send('ann', 'POST', '/v1/memos', { owner: 'ann', title: 'ann memo' })).json.identity;
    ids.bob = (await send('bob', 'POST', '/v1/memos', { owner: 'bob', title: 'bob memo' })).json.identity;
  }, 240_000);
  afterAll(async () => served?.stop());

  it('read: a row the caller may not see is none, as a missing one', async () => {
    const hidden = await send('ann', 'POST', '/v1/pins', { memo: ids.bob });
    const missing = await send('ann', 'POST', '/v1/pins', { memo: MISSING });
    expect(hidden.status, hidden.text).toBe(422);
    expect(hidden.json).toEqual(missing.json);
    expect(hidden.json.errors[0]).toMatchObject({ code: 'memo_not_found', field: 'memo' });
    expect((await send('bob', 'POST', '/v1/pins', { memo: ids.bob })).status).toBe(201);
  });

  it("list: the caller's rows are listed and counted; { rows: 'all' } counts every row", async () => {
    const pin = await send('ann', 'POST', '/v1/pins', { memo: ids.ann });
    expect(pin.status, pin.text).toBe(201);
    expect((await send('ann', 'GET', `/v1/pins/${pin.json.identity}`)).json).toMatchObject({
      memos_seen: 1,
      memos_in_all: 2,
    });
  });

  it('update: a row the caller may not see is 404 as a missing one, and nothing of the write is kept', async () => {
    const before = (await send('ann', 'GET', '/v1/pins')).json.length;
    const hidden = await send('ann', 'POST', '/v1/pins', { memo: ids.ann, bump: ids.bob });
    const missing = await send('ann', 'POST', '/v1/pins', { memo: ids.ann, bump: MISSING });
    expect(hidden.status, hidden.text).toBe(404);
    expect(hidden.text.replaceAll(String(ids.bob), 'ID')).toBe(missing.text.replaceAll(String(MISSING), 'ID'));
    expect((await send('bob', 'GET', `/v1/memos/${ids.bob}`)).json.title).toBe('bob memo');
    expect((await send('ann', 'GET', '/v1/pins')).json.length).toBe(before);
    // Her own memo she may bump.
    expect((await send('ann', 'POST', '/v1/pins', { memo: ids.ann, bump: ids.ann })).status).toBe(201);
    expect((await send('ann', 'GET', `/v1/memos/${ids.ann}`)).json.title).toBe('bumped');
  });
});
