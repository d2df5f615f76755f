import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/poll.ts';
import { editFile, serveCopiedProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';
import { MEMOS } from '../../support/memo-definitions.ts';
import { sendAs, type CallAs } from '../../support/send-as.ts';

const LABELS = `import { aggregate, field } from '@convapi/dsl';
export default aggregate({ name: 'labels', parent: 'memos', fields: { color: field.string() }, versions: { v1: {}, v2: {} } });
`;
/** Parcels: each its owner's, every write carried out by a job. */
const PARCELS = `import { caller, collection, field } from '@convapi/dsl';
export default collection({
  name: 'parcels',
  identifier: { name: 'parcel_id', type: 'integer' },
  fields: { owner: field.string({ required: true, minLength: 1 }), label: field.string({ required: true, minLength: 1 }) },
  rows: { see: { field: 'owner', equals: caller.user } },
  asynchronous: { queue: 'queued/jobs', operations: ['create', 'replace', 'update', 'delete'] },
  versions: { v1: {}, v2: {} },
});
`;
/** Slots: named by their client (PUT creates one), each its owner's; slots:admin sees every one. */
const SLOTS = `import { caller, collection, field } from '@convapi/dsl';
export default collection({
  name: 'slots',
  identifier: { name: 'slot_id', type: 'string', assignedBy: 'client' },
  createOnPut: true,
  operations: { create: false },
  fields: { owner: field.string({ required: true, minLength: 1 }), label: field.string({ required: true, minLength: 1 }) },
  rows: { see: { any: [{ field: 'owner', equals: caller.user }, { scope: 'slots:admin' }] } },
  versions: { v1: {} },
});
`;
/** Pins: no row rule of their own, each referring to a memo (whose row rule holds when it is expanded). */
const PINS = `import { collection, field } from '@convapi/dsl';
export default collection({
  name: 'pins',
  identifier: { name: 'pin_id', type: 'integer' },
  fields: { memo: field.reference('memos', { required: true }) },
  versions: { v1: {} },
});
`;
/** A job type that produces a memo, as the caller who queued it. */
const IMPORT_MEMO = `    'import-memo': job({
      payload: z.object({ owner: z.string().min(1), title: z.string().min(1) }).strict(),
      produces: 'memos',
      run: (record, tools) => tools.createResource('memos', record),
    }),
`;

type Call = CallAs;

/**
 * Every path that can reveal a row, walked by two users of one project: Ann asks about Bob's rows.
 * A row Ann may not see must look exactly as a row that does not exist (the same status and body, the
 * identifier aside, the same headers), and nothing Ann is answered may carry Bob's data.
 */
describe('row access on every path: another user’s row is a missing one', () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  let url: string;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const etags: Record<string, string> = {};
  const MISSING = 424_242;

  const send = (who: string, call: Call) => sendAs(url, tokens[who]!, 'every-path-test/1.0', call);
  const sent = async (who: string, call: Call, status: number) => {
    const answer = await send(who, call);
    expect(answer.status, `${call.method} ${call.path}: ${answer.text}`).toBe(status);
    return answer;
  };
  /** Waits for a job and answers the identifier its 303 names. */
  const produced = async (who: string, jobPath: string) => {
    const done = await until(
      () => send(who, { method: 'GET', path: jobPath }),
      (answer) => answer.status !== 200 || ['failed', 'succeeded'].includes(answer.json.state),
      15_000,
    );
    expect(done.status, done.text).toBe(303);
    return Number(done.headers.get('location')!.split('/').at(-1));
  };
  const jobPathOf = (answer: { headers: Headers }) => new URL(answer.headers.get('location')!).pathname;

  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    served = await serveCopiedProject((root) => {
      writeFileSync(join(root, 'definitions/memos.ts'), MEMOS);
      writeFileSync(join(root, 'definitions/labels.ts'), LABELS);
      writeFileSync(join(root, 'definitions/parcels.ts'), PARCELS);
      writeFileSync(join(root, 'definitions/slots.ts'), SLOTS);
      writeFileSync(join(root, 'definitions/pins.ts'), PINS);
      editFile(root, 'definitions/queued-jobs.ts', (text) =>
        text.replace("    'remind-guest': job({", `${IMPORT_MEMO}    'remind-guest': job({`),
      );
    }, databaseUrl);
    url = served.server.url;
    tokens.ann = issueToken(databaseUrl, 'memo-app', { user: 'ann' });
    tokens.bob = issueToken(databaseUrl, 'memo-app', { user: 'bob' });
    tokens.admin = issueToken(databaseUrl, 'memo-admin', { user: 'root', scopes: ['memos:admin', 'slots:admin'] });

    const created = async (who: string, path: string, body: unknown) =>
      (await sent(who, { method: 'POST', path, body }, 201)).json.identity as number;
    ids.annMemo = await created('ann', '/v1/memos', { owner: 'ann', title: 'ann plan' });
    ids.bobMemo = await created('bob', '/v1/memos', { owner: 'bob', title: 'bob plan' });
    // The admin may write a memo of Ann's that refers to one of Bob's.
    ids.annAboutBob = await created('admin', '/v1/memos', { owner: 'ann', title: 'follow up', about: ids.bobMemo });
    await sent('bob', { method: 'PUT', path: `/v1/memos/${ids.bobMemo}/labels`, body: { color: 'bob red' } }, 200);
    // A pin (a collection without row rules) referring to Bob's memo, which Ann may read.
    ids.pinOfBob = await created('bob', '/v1/pins', { memo: ids.bobMemo });
    etags.bobMemo = (await sent('bob', { method: 'GET', path: `/v1/memos/${ids.bobMemo}` }, 200)).headers.get('etag')!;
    etags.bobLabels = (await sent('bob', { method: 'GET', path: `/v1/memos/${ids.bobMemo}/labels` }, 200)).headers.get(
      'etag',
    )!;

    // Bob's parcel, created by a job; its job, finished, answers 303 to it (for Bob).
    const parcelJob = await sent(
      'bob',
      { method: 'POST', path: '/v1/parcels', body: { owner: 'bob', label: 'bob box' } },
      202,
    );
    ids.bobParcelJob = Number(jobPathOf(parcelJob).split('/').at(-1));
    ids.bobParcel = await produced('bob', jobPathOf(parcelJob));
    // A job queued by Bob that is still to run (a PATCH of his parcel): Ann may not know of it either.
    const importJob = await sent(
      'bob',
      {
        method: 'PUT',
        path: '/services/v1/queued/jobs',
        body: { type: 'import-memo', owner: 'bob', title: 'bob imported' },
      },
      202,
    );
    ids.bobImportJob = Number(jobPathOf(importJob).split('/').at(-1));
    ids.bobImported = await produced('bob', jobPathOf(importJob));
  }, 240_000);
  afterAll(async () => served?.stop());

  /** Ann's view of a row given by its identifier: each call made for Bob's row and for one that does not exist. */
  const byIdentifier: [string, (id: number) => Call][] = [
    ['GET one', (id) => ({ method: 'GET', path: `/v1/memos/${id}` })],
    ['GET one, v2', (id) => ({ method: 'GET', path: `/v2/memos/${id}` })],
    ['HEAD', (id) => ({ method: 'HEAD', path: `/v1/memos/${id}` })],
    [
      "If-None-Match with the row's ETag (never 304)",
      (id) => ({ method: 'GET', path: `/v1/memos/${id}`, headers: { 'If-None-Match': etags.bobMemo! } }),
    ],
    ['If-None-Match: *', (id) => ({ method: 'GET', path: `/v1/memos/${id}`, headers: { 'If-None-Match': '*' } })],
    [
      'If-Modified-Since',
      (id) => ({
        method: 'GET',
        path: `/v1/memos/${id}`,
        headers: { 'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString() },
      }),
    ],
    ['PUT', (id) => ({ method: 'PUT', path: `/v1/memos/${id}`, body: { owner: 'ann', title: 'taken' } })],
    [
      'PUT with If-Match of the row (never 412)',
      (id) => ({
        method: 'PUT',
        path: `/v1/memos/${id}`,
        body: { owner: 'ann', title: 'taken' },
        headers: { 'If-Match': etags.bobMemo! },
      }),
    ],
    ['PATCH', (id) => ({ method: 'PATCH', path: `/v1/memos/${id}`, body: { title: 'taken' } })],
    ['DELETE', (id) => ({ method: 'DELETE', path: `/v1/memos/${id}` })],
    ['GET its aggregate', (id) => ({ method: 'GET', path: `/v1/memos/${id}/labels` })],
    [
      'GET its aggregate with its ETag',
      (id) => ({ method: 'GET', path: `/v1/memos/${id}/labels`, headers: { 'If-None-Match': etags.bobLabels! } }),
    ],
    ['PUT its aggregate', (id) => ({ method: 'PUT', path: `/v1/memos/${id}/labels`, body: { color: 'green' } })],
    ['PATCH its aggregate', (id) => ({ method: 'PATCH', path: `/v2/memos/${id}/labels`, body: { color: 'green' } })],
    [
      'a reference to it in a POST body',
      (id) => ({ method: 'POST', path: '/v1/memos', body: { owner: 'ann', title: 'x', about: id } }),
    ],
    [
      'a reference to it in a PATCH body',
      (id) => ({ method: 'PATCH', path: `/v1/memos/${ids.annMemo}`, body: { about: `${url}/v1/memos/${id}` } }),
    ],
    ['an asynchronous PATCH', (id) => ({ method: 'PATCH', path: `/v1/parcels/${id}`, body: { label: 'taken' } })],
    [
      'an asynchronous PUT',
      (id) => ({ method: 'PUT', path: `/v1/parcels/${id}`, body: { owner: 'ann', label: 'taken' } }),
    ],
    ['an asynchronous DELETE', (id) => ({ method: 'DELETE', path: `/v1/parcels/${id}` })],
  ];
  const rowIdOf: Record<string, () => number> = { parcels: () => ids.bobParcel! };

  it.each(byIdentifier)("%s: Bob's row answers Ann as a missing one", async (_name, call) => {
    const hiddenCall = call(call(0).path.includes('/parcels/') ? rowIdOf.parcels!() : ids.bobMemo!);
    const hidden = await send('ann', hiddenCall);
    const missing = await send('ann', call(MISSING));
    const hiddenId = hiddenCall.path.includes('/parcels/') ? ids.bobParcel! : ids.bobMemo!;
    expect(hidden.status, hidden.text).toBe(missing.status);
    expect([404, 422]).toContain(hidden.status);
    expect(hidden.text.replaceAll(String(hiddenId), 'ID')).toBe(missing.text.replaceAll(String(MISSING), 'ID'));
    expect([...hidden.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort());
    expect(hidden.text).not.toContain('bob');
  });

  /** Jobs that tell of Bob's rows: the job of his parcel's creation (its 303), the import that produced his memo. */
  const jobCalls: [string, () => number, (id: number) => Call][] = [
    [
      "GET of an asynchronous create's job",
      () => ids.bobParcelJob!,
      (id) => ({ method: 'GET', path: `/services/v1/queued/jobs/${id}` }),
    ],
    [
      'GET of a job that produced a memo',
      () => ids.bobImportJob!,
      (id) => ({ method: 'GET', path: `/services/v2/queued/jobs/${id}` }),
    ],
    [
      "DELETE of an asynchronous create's job",
      () => ids.bobParcelJob!,
      (id) => ({ method: 'DELETE', path: `/services/v1/queued/jobs/${id}` }),
    ],
    [
      'DELETE of a job that produced a memo',
      () => ids.bobImportJob!,
      (id) => ({ method: 'DELETE', path: `/services/v1/queued/jobs/${id}` }),
    ],
  ];

  it.each(jobCalls)('%s: answers Ann as an unknown job (no 303, no Location)', async (_name, jobId, call) => {
    const hidden = await send('ann', call(jobId()));
    const missing = await send('ann', call(MISSING));
    expect(hidden.status, hidden.text).toBe(404);
    expect(hidden.text.replaceAll(String(jobId()), 'ID')).toBe(missing.text.replaceAll(String(MISSING), 'ID'));
    expect(hidden.headers.get('location')).toBeNull();
    // Bob, who queued them, still follows them to his rows.
    if (call(1).method === 'GET') expect((await send('bob', call(jobId()))).status).toBe(303);
  });

  /** Reads answering many rows: Ann's own only, counted as hers. */
  const listings: [string, Call, number][] = [
    ['a list', { method: 'GET', path: '/v1/memos' }, 2],
    ['the (list) path', { method: 'GET', path: '/v1/memos/(list)' }, 2],
    ['a list, percent-encoded (list)', { method: 'GET', path: '/v2/memos/%28list%29' }, 2],
    ["a filter naming Bob's title", { method: 'GET', path: '/v1/memos?title=bob%20plan' }, 0],
    ["a page past Ann's rows", { method: 'GET', path: '/v1/memos?limit=1&offset=1' }, 2],
    ['sorted, newest first', { method: 'GET', path: '/v1/memos?sort=-memo_id' }, 2],
    ['sorted, one page', { method: 'GET', path: '/v2/memos?sort=memo_id&limit=2' }, 2],
    ['the search service', { method: 'GET', path: '/services/v1/search?q=plan&category=memos' }, 1],
    ["a search for Bob's words", { method: 'GET', path: '/services/v1/search?q=bob&category=memos' }, 0],
    [
      'X-Expansion-Fields on a list',
      { method: 'GET', path: '/v1/memos', headers: { 'X-Expansion-Fields': 'true' } },
      2,
    ],
    [
      'X-Expansion-Fields on a search',
      { method: 'GET', path: '/services/v1/search?q=follow&category=memos', headers: { 'X-Expansion-Fields': 'true' } },
      1,
    ],
    ["an asynchronous collection's list", { method: 'GET', path: '/v1/parcels' }, 0],
  ];

  it.each(listings)(
    "%s: X-Total-Count and Link count Ann's rows only, and nothing of Bob's is in it",
    async (_name, call, total) => {
      const answer = await sent('ann', call, 200);
      expect(answer.headers.get('x-total-count')).toBe(String(total));
      expect(answer.text).not.toContain('bob');
      for (const id of [ids.bobParcel, ids.bobImported])
        expect(answer.text).not.toMatch(new RegExp(`/(memos|parcels)/${id}\\b`));
      // Every list here fits one page of Ann's rows: no next page for Bob's to be on.
      expect(answer.headers.get('link') ?? '').not.toContain('rel="next"');
      // The one reference to Bob's memo stays its URI, never its content.
      const version = /\/(v[0-9]+)\//.exec(call.path)![1];
      for (const item of answer.json as { about?: unknown }[])
        if (item.about !== undefined) expect(item.about).toBe(`${url}/${version}/memos/${ids.bobMemo}`);
    },
  );

  it('a PUT that creates: an identifier a row Ann may not see holds answers as a free one, and neither is written', async () => {
    // The admin, who sees every slot, creates by PUT (Bob's slot); Ann, who does not, creates nowhere.
    await sent(
      'admin',
      { method: 'PUT', path: '/v1/slots/taken-slot', body: { owner: 'bob', label: 'bob slot' } },
      201,
    );
    const put = (id: string): Call => ({
      method: 'PUT',
      path: `/v1/slots/${id}`,
      body: { owner: 'ann', label: 'taken' },
    });
    const hidden = await send('ann', put('taken-slot'));
    const free = await send('ann', put('free-slot'));
    expect(hidden.status, hidden.text).toBe(404);
    expect(hidden.text.replaceAll('taken-slot', 'ID')).toBe(free.text.replaceAll('free-slot', 'ID'));
    expect([...hidden.headers.keys()].sort()).toEqual([...free.headers.keys()].sort());
    expect(hidden.text).not.toContain('bob');
    expect((await sent('bob', { method: 'GET', path: '/v1/slots/taken-slot' }, 200)).json).toMatchObject({
      owner: 'bob',
      label: 'bob slot',
    });
    await sent('admin', { method: 'GET', path: '/v1/slots/free-slot' }, 404);
    // The OpenAPI document says so: that PUT creates (201) and may answer 404.
    const document = (await sent('ann', { method: 'GET', path: '/services/v1/openapi' }, 200)).json;
    expect(Object.keys(document.paths['/v1/slots/{slot_id}'].put.responses)).toEqual(
      expect.arrayContaining(['200', '201', '404']),
    );
  });

  it('X-Expansion-Fields from a collection without row rules: a memo Ann may not see stays its URI', async () => {
    const uri = `${url}/v1/memos/${ids.bobMemo}`;
    const expanded = { 'X-Expansion-Fields': 'true' };
    const one = await sent('ann', { method: 'GET', path: `/v1/pins/${ids.pinOfBob}`, headers: expanded }, 200);
    expect(one.json.memo).toBe(uri);
    const list = await sent('ann', { method: 'GET', path: '/v1/pins', headers: expanded }, 200);
    expect((list.json as { memo: unknown }[]).map((pin) => pin.memo)).toEqual([uri]);
    expect(list.text).not.toContain('bob');
    // Bob, who may see it, gets it inlined.
    const his = await sent('bob', { method: 'GET', path: `/v1/pins/${ids.pinOfBob}`, headers: expanded }, 200);
    expect(his.json.memo).toMatchObject({ memo_id: ids.bobMemo, title: 'bob plan' });
  });

  it('Bob and the admin still see what Ann may not', async () => {
    expect((await sent('bob', { method: 'GET', path: `/v1/memos/${ids.bobMemo}/labels` }, 200)).json).toEqual({
      color: 'bob red',
    });
    expect((await sent('admin', { method: 'GET', path: '/v1/memos' }, 200)).headers.get('x-total-count')).toBe('4');
    expect((await sent('bob', { method: 'GET', path: `/v1/parcels/${ids.bobParcel}` }, 200)).json).toMatchObject({
      owner: 'bob',
      label: 'bob box',
    });
    const admin = await sent(
      'admin',
      { method: 'GET', path: `/v1/memos/${ids.annAboutBob}`, headers: { 'X-Expansion-Fields': 'true' } },
      200,
    );
    expect(admin.json.about).toMatchObject({ memo_id: ids.bobMemo, owner: 'bob' });
  });

  it('Ann cannot write a row she could not see, through an aggregate or a job', async () => {
    // An asynchronous create of Bob's parcel is refused at once, never queued.
    const foreign = await sent(
      'ann',
      { method: 'POST', path: '/v1/parcels', body: { owner: 'bob', label: 'planted' } },
      403,
    );
    expect(foreign.json.errors[0].code).toBe('row_not_changeable');
    expect((await sent('bob', { method: 'GET', path: '/v1/parcels' }, 200)).headers.get('x-total-count')).toBe('1');
    // Bob's labels are as he left them.
    expect((await sent('bob', { method: 'GET', path: `/v1/memos/${ids.bobMemo}/labels` }, 200)).json).toEqual({
      color: 'bob red',
    });
    // Ann's own parcel, through a job, and its job: hers to follow.
    const own = await sent(
      'ann',
      { method: 'POST', path: '/v1/parcels', body: { owner: 'ann', label: 'ann box' } },
      202,
    );
    const parcel = await produced('ann', jobPathOf(own));
    // A job that would give her parcel away fails with the row rule's error, and the parcel stays hers.
    const giveAway = await sent(
      'ann',
      { method: 'PUT', path: `/v1/parcels/${parcel}`, body: { owner: 'bob', label: 'gift' } },
      202,
    );
    const failed = await until(
      () => send('ann', { method: 'GET', path: jobPathOf(giveAway) }),
      (answer) => answer.json?.state === 'failed',
      15_000,
    );
    expect(failed.json.errors[0].code).toBe('row_not_changeable');
    expect((await sent('ann', { method: 'GET', path: `/v1/parcels/${parcel}` }, 200)).json.owner).toBe('ann');
    // Bob does not learn of Ann's jobs.
    await sent('bob', { method: 'GET', path: jobPathOf(own) }, 404);
  });
});
