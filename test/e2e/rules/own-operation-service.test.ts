import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../support/error-body.ts';
import { MEMOS } from '../../support/memo-definitions.ts';
import { serveCopiedProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';
import { sendAs } from '../../support/send-as.ts';

/**
 * A hand-written operation on a service path: POST /services/v1/memo-copies/{memo_id} reads the memo
 * as the caller (row access), creates its copy and renames the original through the data access, in
 * one transaction, and answers the copy as a memo resource. `fail` makes it throw after both writes:
 * a refusal (409) or any other error (500).
 */
const MEMO_COPIES = `import { z } from 'zod';
import { conflict, service } from '@convapi/dsl';
import memos from './memos.ts';
export default service({
  name: 'memo-copies',
  versions: { v1: {}, v2: {} },
  operations: [
    {
      method: 'POST',
      path: ':memo_id',
      scopes: ['memos:copy'],
      body: z.object({ title: z.string().min(1), fail: z.enum(['refusal', 'error']).optional() }),
      answers: memos,
      *handle({ params, body, data }) {
        // The path's text as it is: the data access checks it as a generated route checks its identifier.
        const original = yield* data.of(memos).get(params.memo_id!);
        const copy = yield* data.of(memos).create({ owner: original.owner, title: body.title, about: Number(params.memo_id) });
        yield* data.of(memos).update(params.memo_id!, { title: original.title + ' (copied)' });
        if (body.fail === 'refusal') throw conflict('copy_refused', 'refused after both writes', { field: 'title' });
        if (body.fail === 'error') throw new Error('a fault after both writes');
        return { status: 201, resource: copy };
      },
    },
  ],
});
`;

/** Memos with an own operation below one memo: POST /{v}/memos/{memo_id}/renames renames it through its collection. */
const MEMOS_WITH_TITLE = MEMOS.replace(
  "import { caller, collection, field } from '@convapi/dsl';",
  "import { z } from 'zod';\nimport { caller, collection, field } from '@convapi/dsl';",
).replace(
  'versions: { v1: {}, v2: {} },',
  `ownOperations: [
    {
      method: 'POST',
      path: 'renames',
      scopes: ['memos:copy'],
      body: z.object({ title: z.string().min(1), about: z.number().int().optional() }),
      *handle({ key, body, collection }) {
        // about is undefined when the body leaves it out: a member left out, as in a PATCH body.
        return { resource: yield* collection.update(key, { title: body.title, about: body.about }) };
      },
    },
  ],
  versions: { v1: {}, v2: {} },`,
);

describe('a hand-written operation on a service path: data in one transaction, as the caller, rendered as a resource', () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const MISSING = 424_242;

  // Headers as a record, the body as `body`: what expectErrorBody reads.
  const send = async (
    who: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const answered = await sendAs(served.server.url, tokens[who]!, 'own-operation-test/1.0', {
      method,
      path,
      body,
      headers,
    });
    return { ...answered, body: answered.json, headers: Object.fromEntries(answered.headers) };
  };
  const titles = async (who: string) =>
    ((await send(who, 'GET', '/v1/memos?limit=500')).json as { title: string }[]).map((memo) => memo.title).sort();

  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    served = await serveCopiedProject((root) => {
      writeFileSync(join(root, 'definitions/memos.ts'), MEMOS_WITH_TITLE);
      writeFileSync(join(root, 'definitions/memo-copies.ts'), MEMO_COPIES);
    }, databaseUrl);
    tokens.ann = issueToken(databaseUrl, 'memo-app', { user: 'ann', scopes: ['memos:copy'] });
    tokens.bob = issueToken(databaseUrl, 'memo-app', { user: 'bob', scopes: ['memos:copy'] });
    tokens.unscoped = issueToken(databaseUrl, 'memo-app', { user: 'ann' });
    ids.ann = (await send('ann', 'POST', '/v1/memos', { owner: 'ann', title: 'plan' })).body.identity;
    ids.bob = (await send('bob', 'POST', '/v1/memos', { owner: 'bob', title: 'secret' })).body.identity;
  }, 240_000);
  afterAll(async () => served?.stop());

  it('creates and updates in one transaction, and answers the new resource with its ETag and X-Result-Fields honoured', async () => {
    const copied = await send('ann', 'POST', `/services/v1/memo-copies/${ids.ann}`, { title: 'plan b' });
    expect(copied.status, copied.text).toBe(201);
    expect(copied.json).toEqual({
      memo_id: expect.any(Number),
      owner: 'ann',
      title: 'plan b',
      about: `${served.server.url}/v1/memos/${ids.ann}`,
      created_at: expect.any(String),
    });
    // The ETag is the resource's version: the one GET of it carries.
    const read = await send('ann', 'GET', `/v1/memos/${copied.json.memo_id}`);
    expect(copied.headers.etag).toBeDefined();
    expect(copied.headers.etag).toBe(read.headers.etag);
    expect(await titles('ann')).toEqual(['plan (copied)', 'plan b']);

    const fewer = await send(
      'ann',
      'POST',
      `/services/v2/memo-copies/${ids.ann}`,
      { title: 'plan c' },
      {
        'X-Result-Fields': 'title',
      },
    );
    expect(fewer.status, fewer.text).toBe(201);
    expect(fewer.json).toEqual({ title: 'plan c' });
    const whole = await send(
      'ann',
      'GET',
      `/v2/memos/${(await send('ann', 'GET', '/v2/memos?title=plan%20c')).body[0].memo_id}`,
    );
    expect(fewer.headers.etag).toBe(whole.headers.etag);
    // X-Expansion-Fields inlines what the resource refers to, as GET does.
    const expanded = await send(
      'ann',
      'POST',
      `/services/v1/memo-copies/${ids.ann}`,
      { title: 'plan d' },
      {
        'X-Expansion-Fields': 'true',
      },
    );
    expect(expanded.json.about).toMatchObject({ memo_id: ids.ann, owner: 'ann' });
  });

  it('a refused X-Result-Fields or X-Expansion-Fields is checked before the operation runs: 400 and nothing written', async () => {
    const before = await titles('ann');
    const refusedHeaders: Record<string, string>[] = [
      { 'X-Result-Fields': 'colour' },
      { 'X-Expansion-Fields': 'maybe' },
    ];
    for (const headers of refusedHeaders) {
      const refused = await send('ann', 'POST', `/services/v1/memo-copies/${ids.ann}`, { title: 'twice' }, headers);
      expect(refused.status, refused.text).toBe(400);
      expect(await titles('ann')).toEqual(before);
    }
  });

  it('a 201 names the created resource in Location, as POST does', async () => {
    const copied = await send('ann', 'POST', `/services/v1/memo-copies/${ids.ann}`, { title: 'located' });
    expect(copied.status, copied.text).toBe(201);
    expect(copied.headers.location).toBe(`${served.server.url}/v1/memos/${copied.json.memo_id}`);
  });

  it.each(['01', 'abc', '1.5', '-1', '99999999999999999999'])(
    'a path identifier %s the collection cannot have is 400 invalid_identifier, as on the generated routes',
    async (id) => {
      const refused = await send('ann', 'POST', `/services/v1/memo-copies/${id}`, { title: 'x' });
      expect(refused.status, refused.text).toBe(400);
      expectErrorBody(refused, 'invalid_identifier', 'memo_id');
    },
  );

  it('a row the caller may not see is 404 to the operation, exactly as to GET, and nothing is written', async () => {
    const before = await titles('bob');
    const hidden = await send('ann', 'POST', `/services/v1/memo-copies/${ids.bob}`, { title: 'stolen' });
    const missing = await send('ann', 'POST', `/services/v1/memo-copies/${MISSING}`, { title: 'stolen' });
    const get = await send('ann', 'GET', `/v1/memos/${ids.bob}`);
    expect(hidden.status, hidden.text).toBe(404);
    expect(hidden.text.replaceAll(String(ids.bob), 'ID')).toBe(missing.text.replaceAll(String(MISSING), 'ID'));
    expect(hidden.text).toBe(get.text);
    expect(await titles('bob')).toEqual(before);
  });

  it.each([
    ['refusal', 409, 'copy_refused'],
    ['error', 500, 'internal_error'],
  ])('a %s thrown after both writes answers %i and keeps neither write', async (fail, status, code) => {
    const before = await titles('ann');
    const failed = await send('ann', 'POST', `/services/v1/memo-copies/${ids.ann}`, { title: 'never', fail });
    expect(failed.status, failed.text).toBe(status);
    expectErrorBody(failed, code);
    expect(await titles('ann')).toEqual(before);
  });

  it('the same checks as the generated routes: scopes (403 insufficient_scope), body validation with unknown members refused', async () => {
    const unscoped = await send('unscoped', 'POST', `/services/v1/memo-copies/${ids.ann}`, { title: 'x' });
    expect(unscoped.status).toBe(403);
    expectErrorBody(unscoped, 'insufficient_scope');
    expect(unscoped.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="memos:copy"');
    const unknown = await send('ann', 'POST', `/services/v1/memo-copies/${ids.ann}`, { title: 'x', colour: 'red' });
    expect(unknown.status).toBe(400);
    expectErrorBody(unknown, 'unknown_field', 'colour');
    const missing = await send('ann', 'POST', `/services/v1/memo-copies/${ids.ann}`, {});
    expect(missing.status).toBe(400);
    expectErrorBody(missing, 'missing_field', 'title');
  });

  it("below one resource of the collection too: the caller's row is changed; another's is 404 as to GET; scopes hold", async () => {
    const renamed = await send('ann', 'POST', `/v1/memos/${ids.ann}/renames`, { title: 'plan z' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ memo_id: ids.ann, owner: 'ann', title: 'plan z' });
    expect(renamed.headers.etag).toBe((await send('ann', 'GET', `/v1/memos/${ids.ann}`)).headers.etag);
    const hidden = await send('ann', 'POST', `/v1/memos/${ids.bob}/renames`, { title: 'stolen' });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe((await send('ann', 'GET', `/v1/memos/${ids.bob}`)).text);
    expect((await send('bob', 'GET', `/v1/memos/${ids.bob}`)).body.title).toBe('secret');
    const unscoped = await send('unscoped', 'POST', `/v1/memos/${ids.ann}/renames`, { title: 'x' });
    expect(unscoped.status).toBe(403);
    expectErrorBody(unscoped, 'insufficient_scope');
  });
});
