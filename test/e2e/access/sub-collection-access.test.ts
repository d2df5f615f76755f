import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMOS } from '../../support/memo-definitions.ts';
import { sendAs, type Answered, type CallAs } from '../../support/send-as.ts';
import { serveCopiedProject } from '../../support/temp-project.ts';
import { newTestDatabase } from '../../support/test-database.ts';
import { issueToken } from '../../support/token-cli.ts';

/** Steps of a memo, served below it (`parent: 'memo'`), each its owner's as memos are. */
const STEPS = `import { caller, collection, field } from '@convapi/dsl';
export default collection({
  name: 'steps',
  identifier: { name: 'step_id', type: 'integer' },
  parent: 'memo',
  fields: {
    memo: field.reference('memos', { required: true }),
    owner: field.string({ required: true, minLength: 1 }),
    label: field.string({ required: true, minLength: 1, filterable: true }),
  },
  rows: { see: { any: [{ field: 'owner', equals: caller.user }, { scope: 'memos:admin' }] } },
  versions: { v1: {}, v2: {} },
});
`;

/**
 * Row access below a parent: a memo the caller may not see is a missing one on every path below it
 * (even for a step of the caller's own there), and a step the caller may not see is neither listed,
 * counted, nor read, below a memo it does see.
 */
describe('row access on sub-collection paths', () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const MISSING = 424_242;

  const send = (who: string, call: CallAs) => sendAs(served.server.url, tokens[who]!, 'sub-collection-test/1.0', call);
  const sent = async (who: string, call: CallAs, status: number) => {
    const answer = await send(who, call);
    expect(answer.status, `${call.method} ${call.path}: ${answer.text}`).toBe(status);
    return answer;
  };
  const created = async (who: string, path: string, body: unknown) =>
    (await sent(who, { method: 'POST', path, body }, 201)).json.identity as number;
  /** A hidden row's answer and a missing one's must be the same: status, body (the identifier aside), header names. */
  const sameAsMissing = (hidden: Answered, missing: Answered, hiddenId: number) => {
    expect(hidden.status).toBe(404);
    expect(hidden.text.replaceAll(String(hiddenId), 'ID')).toBe(missing.text.replaceAll(String(MISSING), 'ID'));
    const names = (answer: Answered) => [...answer.headers.keys()].filter((name) => name !== 'date').sort();
    expect(names(hidden)).toEqual(names(missing));
  };

  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    served = await serveCopiedProject((root) => {
      writeFileSync(join(root, 'definitions/memos.ts'), MEMOS);
      writeFileSync(join(root, 'definitions/steps.ts'), STEPS);
    }, databaseUrl);
    tokens.ann = issueToken(databaseUrl, 'memo-app', { user: 'ann' });
    tokens.bob = issueToken(databaseUrl, 'memo-app', { user: 'bob' });
    tokens.admin = issueToken(databaseUrl, 'memo-admin', { user: 'root', scopes: ['memos:admin'] });
    ids.annMemo = await created('ann', '/v1/memos', { owner: 'ann', title: 'ann plan' });
    ids.bobMemo = await created('bob', '/v1/memos', { owner: 'bob', title: 'bob plan' });
    ids.annStep1 = await created('ann', `/v1/memos/${ids.annMemo}/steps`, { owner: 'ann', label: 'first' });
    ids.annStep2 = await created('ann', `/v1/memos/${ids.annMemo}/steps`, { owner: 'ann', label: 'second' });
    ids.bobStep = await created('bob', `/v1/memos/${ids.bobMemo}/steps`, { owner: 'bob', label: 'bob step' });
    // The admin may write a step of Bob's below Ann's memo: Ann must not see it, Bob must not reach it.
    ids.bobStepOfAnn = await created('admin', `/v1/memos/${ids.annMemo}/steps`, { owner: 'bob', label: 'bob aside' });
  }, 240_000);
  afterAll(async () => served?.stop());

  it.each([
    ['GET the list', (memo: number) => ({ method: 'GET', path: `/v1/memos/${memo}/steps` })],
    ['GET the /(list) form, v2', (memo: number) => ({ method: 'GET', path: `/v2/memos/${memo}/steps/(list)` })],
    ['HEAD the list', (memo: number) => ({ method: 'HEAD', path: `/v1/memos/${memo}/steps` })],
    ['GET one', (memo: number) => ({ method: 'GET', path: `/v1/memos/${memo}/steps/${ids.bobStep}` })],
    [
      'POST',
      (memo: number) => ({ method: 'POST', path: `/v1/memos/${memo}/steps`, body: { owner: 'ann', label: 'x' } }),
    ],
  ] as const)('%s below a memo Ann may not see: 404, as below a missing memo', async (_name, call) => {
    sameAsMissing(await send('ann', call(ids.bobMemo!)), await send('ann', call(MISSING)), ids.bobMemo!);
  });

  it('nothing was created below a hidden memo', async () => {
    const steps = await sent('admin', { method: 'GET', path: `/v1/memos/${ids.bobMemo}/steps` }, 200);
    expect(steps.json.map((step: { step_id: number }) => step.step_id)).toEqual([ids.bobStep]);
  });

  it('a step of the caller’s own below a memo it may not see is out of reach there', async () => {
    const hidden = await send('bob', { method: 'GET', path: `/v1/memos/${ids.annMemo}/steps/${ids.bobStepOfAnn}` });
    expect(hidden.status).toBe(404);
    expect(hidden.json.errors[0]).toMatchObject({ code: 'resource_not_found', resource: 'memos' });
    await sent('bob', { method: 'GET', path: `/v1/steps/${ids.bobStepOfAnn}` }, 200);
  });

  it('below a visible memo, steps the caller may not see are not listed, counted or linked', async () => {
    const list = await sent('ann', { method: 'GET', path: `/v1/memos/${ids.annMemo}/steps` }, 200);
    expect(list.json.map((step: { step_id: number }) => step.step_id)).toEqual([ids.annStep1, ids.annStep2]);
    expect(list.headers.get('x-total-count')).toBe('2');
    const page = await sent('ann', { method: 'GET', path: `/v1/memos/${ids.annMemo}/steps?limit=1&offset=1` }, 200);
    expect(page.headers.get('link')).not.toContain('rel="next"');
    expect(page.text).not.toContain('bob');
    const all = await sent('admin', { method: 'GET', path: `/v1/memos/${ids.annMemo}/steps` }, 200);
    expect(all.headers.get('x-total-count')).toBe('3');
  });

  it('GET one of a step the caller may not see below a visible memo: 404, as a missing step', async () => {
    const path = (step: number) => `/v1/memos/${ids.annMemo}/steps/${step}`;
    const hidden = await send('ann', { method: 'GET', path: path(ids.bobStepOfAnn!) });
    const missing = await send('ann', { method: 'GET', path: path(MISSING) });
    expect(hidden.status).toBe(404);
    expect(hidden.text.replaceAll(String(ids.bobStepOfAnn), 'ID')).toBe(missing.text.replaceAll(String(MISSING), 'ID'));
  });
});
