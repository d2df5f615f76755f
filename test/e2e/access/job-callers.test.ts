import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/poll.ts';
import { editFile, serveCopiedProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';
import { sendAs, type CallAs } from '../../support/send-as.ts';

/** Jottings: each its owner's (jottings:admin sees all), with a create rule on the title. */
const JOTTINGS = `import { caller, collection, field, unprocessable } from '@convapi/dsl';
export default collection({
  name: 'jottings',
  identifier: { name: 'jotting_id', type: 'integer' },
  fields: {
    owner: field.string({ required: true, minLength: 1 }),
    title: field.string({ required: true, minLength: 1 }),
  },
  rows: { see: { any: [{ field: 'owner', equals: caller.user }, { scope: 'jottings:admin' }] } },
  rules: {
    create({ next }) {
      if (next.title === 'forbidden') throw unprocessable('title_forbidden', 'no jotting may be titled forbidden', { field: 'title' });
    },
  },
  versions: { v1: {}, v2: {} },
});
`;
/** Job types writing jottings through tools.createResource, and one that takes its time (still to finish when asked about). */
const JOB_TYPES = `    'import-jotting': job({
      payload: z.object({ owner: z.string().min(1), title: z.string().min(1) }).strict(),
      produces: 'jottings',
      run: (record, tools) => tools.createResource('jottings', record),
    }),
    nap: job({
      payload: z.object({ ms: z.number().int().min(1) }).strict(),
      run: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve({ slept: ms }), ms)),
    }),
`;

/**
 * Jobs and their callers: a job queued through a queue's PUT is kept with its caller, runs as that
 * caller (rules and row rules judge its writes), and only that caller knows of it: another caller is
 * answered as for a job that does not exist, and GET of the queue lists the caller's own jobs.
 */
describe('jobs belong to the caller who queued them', () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  let url: string;
  const tokens: Record<string, string> = {};
  const MISSING = 424_242;

  const send = (who: string, call: CallAs) => sendAs(url, tokens[who]!, 'job-callers-test/1.0', call);
  const sent = async (who: string, call: CallAs, status: number) => {
    const answer = await send(who, call);
    expect(answer.status, `${call.method} ${call.path}: ${answer.text}`).toBe(status);
    return answer;
  };
  const queue = (who: string, body: Record<string, unknown>) =>
    sent(who, { method: 'PUT', path: '/services/v1/queued/jobs', body }, 202);
  const jobPath = (id: number) => `/services/v1/queued/jobs/${id}`;
  /** The job once finished, as its caller reads it (303 when it produced a jotting). */
  const finished = (who: string, id: number) =>
    until(
      () => send(who, { method: 'GET', path: jobPath(id) }),
      (answer) => answer.status !== 200 || ['failed', 'succeeded'].includes(answer.json.state),
      15_000,
    );
  /** Ann's call and the same call about a job that does not exist answer the same, the identifier aside. */
  const expectUnknown = async (who: string, id: number, call: (id: number) => CallAs) => {
    const hidden = await send(who, call(id));
    const missing = await send(who, call(MISSING));
    expect(hidden.status, hidden.text).toBe(404);
    expect(hidden.text.replaceAll(String(id), 'ID')).toBe(missing.text.replaceAll(String(MISSING), 'ID'));
    expect([...hidden.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort());
    expect(hidden.headers.get('location')).toBeNull();
  };
  const read = (id: number): CallAs => ({ method: 'GET', path: jobPath(id) });
  const remove = (id: number): CallAs => ({ method: 'DELETE', path: jobPath(id) });

  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    served = await serveCopiedProject((root) => {
      writeFileSync(join(root, 'definitions/jottings.ts'), JOTTINGS);
      editFile(root, 'definitions/queued-jobs.ts', (text) =>
        text.replace("    'remind-guest': job({", `${JOB_TYPES}    'remind-guest': job({`),
      );
    }, databaseUrl);
    url = served.server.url;
    tokens.ann = issueToken(databaseUrl, 'note-app', { user: 'ann' });
    tokens.annAgain = issueToken(databaseUrl, 'note-app', { user: 'ann' });
    tokens.bob = issueToken(databaseUrl, 'note-app', { user: 'bob' });
    tokens.app = issueToken(databaseUrl, 'note-app');
    tokens.admin = issueToken(databaseUrl, 'note-admin', { user: 'root', scopes: ['jottings:admin'] });
  }, 240_000);
  afterAll(async () => served?.stop());

  it("a finished job and its 303 are its caller's: another user, or the client alone, gets 404 as for no job", async () => {
    const id = (await queue('ann', { type: 'import-jotting', owner: 'ann', title: 'ann imported' })).json.job_id;
    const done = await finished('ann', id);
    expect(done.status, done.text).toBe(303);
    // Another token of the same client and user is the same caller.
    expect((await send('annAgain', read(id))).status).toBe(303);
    for (const other of ['bob', 'app', 'admin']) {
      await expectUnknown(other, id, read);
      await expectUnknown(other, id, remove);
    }
    // Nothing of it went away: Ann still follows it to her jotting.
    const note = await sent('ann', { method: 'GET', path: new URL(done.headers.get('location')!).pathname }, 200);
    expect(note.json).toMatchObject({ owner: 'ann', title: 'ann imported' });
  });

  it('a job still to finish is its caller’s too: its state is 404 to anyone else, and they cannot remove it', async () => {
    const id = (await queue('bob', { type: 'nap', ms: 1500 })).json.job_id;
    await expectUnknown('ann', id, read);
    await expectUnknown('ann', id, remove);
    expect((await sent('bob', read(id), 200)).json.state).toMatch(/^(queued|running)$/);
    expect((await finished('bob', id)).json).toMatchObject({ state: 'succeeded', result: { slept: 1500 } });
  });

  it("a job writes as its caller: the row rule refuses another user's row, the collection's rule its title", async () => {
    const foreign = (await queue('ann', { type: 'import-jotting', owner: 'bob', title: 'planted' })).json.job_id;
    const refused = await finished('ann', foreign);
    expect(refused.json.state).toBe('failed');
    expect(refused.json.errors).toEqual([
      expect.objectContaining({ code: 'row_not_changeable', resource: 'jottings' }),
    ]);
    const ruled = (await queue('ann', { type: 'import-jotting', owner: 'ann', title: 'forbidden' })).json.job_id;
    const broken = await finished('ann', ruled);
    expect(broken.json.state).toBe('failed');
    expect(broken.json.errors).toEqual([
      { code: 'title_forbidden', message: 'no jotting may be titled forbidden', field: 'title', resource: 'jottings' },
    ]);
    // Neither jotting was written.
    const all = await sent('admin', { method: 'GET', path: '/v1/jottings' }, 200);
    expect((all.json as { title: string }[]).map((note) => note.title)).not.toEqual(
      expect.arrayContaining(['planted']),
    );
    expect(all.text).not.toContain('forbidden');
  });

  it("GET of the queue lists the caller's own jobs, filtered by state and type, paged like every list", async () => {
    const ann = await sent('ann', { method: 'GET', path: '/services/v1/queued/jobs' }, 200);
    const annJobs = ann.json as { job_id: number; type: string; state: string; uri: string }[];
    expect(ann.headers.get('x-total-count')).toBe(String(annJobs.length));
    expect(annJobs.length).toBeGreaterThanOrEqual(3);
    expect(annJobs.every((job) => job.type === 'import-jotting')).toBe(true);
    expect(annJobs.map((job) => job.job_id)).toEqual([...annJobs.map((job) => job.job_id)].sort((a, b) => a - b));
    expect(annJobs[0]!.uri).toBe(`${url}/services/v1/queued/jobs/${annJobs[0]!.job_id}`);
    // Bob's list holds his nap and none of Ann's jobs; the client alone queued none.
    const bob = await sent('bob', { method: 'GET', path: '/services/v2/queued/jobs' }, 200);
    expect((bob.json as { type: string }[]).map((job) => job.type)).toEqual(['nap']);
    expect(bob.headers.get('x-total-count')).toBe('1');
    const app = await sent('app', { method: 'GET', path: '/services/v1/queued/jobs' }, 200);
    expect(app.json).toEqual([]);
    expect(app.headers.get('x-total-count')).toBe('0');

    const failed = await sent('ann', { method: 'GET', path: '/services/v1/queued/jobs?state=failed' }, 200);
    expect((failed.json as { state: string }[]).map((job) => job.state)).toEqual(['failed', 'failed']);
    expect(failed.headers.get('x-total-count')).toBe('2');
    const naps = await sent('bob', { method: 'GET', path: '/services/v1/queued/jobs?type=nap&state=succeeded' }, 200);
    expect(naps.headers.get('x-total-count')).toBe('1');
    expect((await sent('ann', { method: 'GET', path: '/services/v1/queued/jobs?type=nap' }, 200)).json).toEqual([]);

    const page = await sent('ann', { method: 'GET', path: '/services/v1/queued/jobs?limit=1&offset=1' }, 200);
    expect((page.json as { job_id: number }[]).map((job) => job.job_id)).toEqual([annJobs[1]!.job_id]);
    expect(page.headers.get('x-total-count')).toBe(String(annJobs.length));
    const link = page.headers.get('link')!;
    expect(link).toContain(`<${url}/services/v1/queued/jobs?limit=1&offset=0>; rel="first"`);
    expect(link).toContain(`<${url}/services/v1/queued/jobs?limit=1&offset=2>; rel="next"`);
    expect(link).toContain(`<${url}/services/v1/queued/jobs?limit=1&offset=0>; rel="prev"`);
  });

  it("a job a rule's effect queues belongs to the caller whose write queued it: listed to them, 404 to anyone else", async () => {
    const made = await sent(
      'ann',
      {
        method: 'POST',
        path: '/v1/reservations',
        body: {
          guest_name: 'Ann Smith',
          room: 'blue',
          starts_at: '2099-03-01T10:00:00Z',
          ends_at: '2099-03-01T11:00:00Z',
        },
      },
      201,
    );
    expect(made.json.identity).toBeDefined();
    const listed = await sent('ann', { method: 'GET', path: '/services/v1/queued/jobs?type=remind-guest' }, 200);
    const reminders = listed.json as { job_id: number }[];
    expect(reminders).toHaveLength(1);
    const id = reminders[0]!.job_id;
    expect((await finished('ann', id)).status).toBe(303);
    for (const other of ['bob', 'app']) {
      await expectUnknown(other, id, read);
      await expectUnknown(other, id, remove);
      const theirs = await sent(other, { method: 'GET', path: '/services/v1/queued/jobs?type=remind-guest' }, 200);
      expect(theirs.json).toEqual([]);
    }
  });

  it.each([
    ['an unknown state', 'state=done', 'invalid_parameter', 'state'],
    ['an unknown type', 'type=launch-rockets', 'invalid_parameter', 'type'],
    ['an unknown parameter', 'colour=red', 'unknown_parameter', 'colour'],
    ['a repeated parameter', 'state=failed&state=queued', 'repeated_parameter', 'state'],
    ['a limit out of bounds', 'limit=501', 'invalid_parameter', 'limit'],
  ])('a list with %s is 400 naming it', async (_name, query, code, field) => {
    const answer = await sent('ann', { method: 'GET', path: `/services/v1/queued/jobs?${query}` }, 400);
    expect(answer.json.errors[0]).toMatchObject({ code, field });
  });
});
