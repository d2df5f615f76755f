import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { z } from 'zod';
import { STRING_LENGTHS } from '@convapi/dsl';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api as generated } from '../../../generated/api.ts';
import { OpenApiChecker } from '../../support/openapi-check.ts';
import { until } from '../../support/poll.ts';
import { prismViolation, startPrismProxy, type PrismProxy } from '../../support/prism-proxy.ts';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { issueToken, tokenCli } from '../../support/token-cli.ts';
import { JSON_MEDIA_TYPE } from '../../../codegen/openapi/media-type.ts';

/**
 * The contract test: a varied set of requests, every operation of both documents and every status
 * each can produce, sent through Stoplight Prism as a validating proxy built from the document
 * (`prism proxy --errors`), which refuses any request or response the document does not describe.
 * HEAD goes to the server directly and is checked against the document with ajv: Prism reads a JSON
 * body from every JSON response, and a HEAD response has none. Requests the document forbids are
 * sent both ways: Prism must refuse them, and the server must refuse them too, with the error body.
 */

type Version = 'v1' | 'v2';
type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';
type Json = Record<string, any>;

const VERSIONS: readonly Version[] = ['v1', 'v2'];
const documentPath = (version: Version) =>
  fileURLToPath(new URL(`../../../generated/openapi/${version}.json`, import.meta.url));
const documents = {
  v1: JSON.parse(readFileSync(documentPath('v1'), 'utf8')) as Json,
  v2: JSON.parse(readFileSync(documentPath('v2'), 'utf8')) as Json,
};
const BODY_LIMIT = 2048;
/**
 * Over the body limit, yet within every string field's maxLength (655 for an indexed one), so the
 * proxy lets it through to the server's 413: a control character is 6 bytes in JSON (`\u0001`).
 */
const BIG = '\u0001'.repeat(BODY_LIMIT / 4);
/** Each family's call budget: more than the main client spends in one family over the whole file. */
const LIMIT = 1000;
/**
 * Statuses documented that no well-formed request through a proxy can make or see: a server fault
 * (500; on a former path's redirect-only GET it is the `default` response), shutting down (503,
 * test/e2e/server/shutdown.test.ts), the connection's refusals, which only a raw socket can provoke
 * (408 a request that does not arrive in time, 417 an Expect other than 100-continue, 431 headers
 * too large, 505 an HTTP version the server does not speak: test/e2e/server/connection-errors.test.ts),
 * and the interim 102, which HTTP clients pass over and only a raw socket sees
 * (test/e2e/statuses/processing.test.ts). Those three tests check what they see against the same documents.
 */
const NOT_PRODUCIBLE = new Set(['500', 'default', '503', '408', '417', '431', '505', '102']);
/**
 * Statuses one operation documents that no request can make it answer. The documents list 409 and
 * 422 on every write of a collection with a rule or an effect (docs/business-rules.md), but the
 * reservations' replace and update rules only throw 400 (ends_before_start), their delete has no
 * rule and its effect only adds an audit, no collection refers to a reservation (so no delete is
 * refused 409), and a reservation holds no reference (so none is 422 reference_not_found): only
 * their create can answer 409 (room_taken) and 422 (starts_in_past), and it is made to, below.
 */
const NOT_PRODUCIBLE_BY_OPERATION = new Set(
  (['v1', 'v2'] as const).flatMap((version) => [
    ...['replaceReservation', 'updateReservation', 'deleteReservation'].flatMap((operation) => [
      `${version} ${operation} 409`,
      `${version} ${operation} 422`,
    ]),
    // A move writes through the reservation's update (its rule throws 400) and an audit (no reference): never 422.
    `${version} postReservationMoves 422`,
  ]),
);
/** The user the main client's token acts for: the owner of the notes it writes (row access, docs/access-control.md). */
const USER = 'contract-user';
/** An instant `days` from now: a new reservation cannot start in the past. */
const daysAhead = (days: number, hours = 0) =>
  new Date(Date.now() + (days * 24 + hours) * 3_600_000).toISOString().replace(/\.[0-9]{3}Z$/, 'Z');

/** Every operation of a document: its method, path template and documented statuses. */
function operationsOf(document: Json) {
  return Object.entries<Json>(document.paths).flatMap(([template, item]) =>
    Object.entries<Json>(item).map(([method, operation]) => ({
      operationId: operation.operationId as string,
      method: method as Method,
      template,
      pattern: new RegExp(`^${template.replace(/[()]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      statuses: Object.keys(operation.responses as Json),
      // A body of several kinds (job types) is sent as its first kind.
      // An own operation's body has no schema of its own name: its operationId names it.
      bodySchema:
        (
          (operation.requestBody?.content?.[JSON_MEDIA_TYPE]?.schema?.$ref ??
            operation.requestBody?.content?.[JSON_MEDIA_TYPE]?.schema?.oneOf?.[0]?.$ref) as string | undefined
        )
          ?.split('/')
          .at(-1) ?? (operation.requestBody === undefined ? undefined : (operation.operationId as string)),
      allow: operation.responses['204']?.headers?.Allow?.schema?.const as string | undefined,
    })),
  );
}

let api: TestApi;
const proxies = {} as Record<Version, PrismProxy>;
const checkers = { v1: new OpenApiChecker(documentPath('v1')), v2: new OpenApiChecker(documentPath('v2')) };
const violations: string[] = [];
const unexpected: string[] = [];
const covered = new Set<string>();
/** What the test's `wait` job waits for: a new gate for each version's run. */
let gate = newGate();
function newGate() {
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}
const auth = { main: '', refused: 'Bearer x', greedy: 'Bearer x', invalid: 'Bearer not-a-token-anyone-issued' };

interface Call {
  readonly method: Method;
  readonly path: string;
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Default: the main client's token. */
  readonly authorization?: string;
  /** A redirect (301, 303): Prism's proxy follows it, so it goes to the server directly and is checked against the document there. */
  readonly direct?: true;
}

/** Sends one request the document allows (through Prism; HEAD directly), records violations, the status, and coverage. */
async function send(version: Version, call: Call): Promise<request.Response> {
  const viaPrism = call.method !== 'head' && call.direct !== true;
  const response = await raw(viaPrism ? proxies[version].url : api.url, call);
  const where = `${call.method.toUpperCase()} ${call.path} → ${response.status}`;
  if (viaPrism) {
    const violation = prismViolation(response);
    if (violation !== undefined) violations.push(`${where}: ${violation}`);
  } else {
    violations.push(...checkers[version].check(call.method, call.path, response, call.headers?.['X-Result-Fields']));
  }
  if (response.status !== call.status)
    unexpected.push(`${where}, expected ${call.status}: ${(response.text ?? '').slice(0, 300)}`);
  const path = new URL(call.path, 'http://x').pathname;
  const operation = operationsOf(documents[version]).find(
    (candidate) => candidate.method === call.method && candidate.pattern.test(path),
  );
  if (operation !== undefined) covered.add(`${version} ${operation.operationId} ${response.status}`);
  return response;
}

function raw(
  base: string,
  { method, path, body, headers = {}, authorization = auth.main }: Call,
): Promise<request.Response> {
  let test = request(base)
    [method](path)
    .set({ 'User-Agent': 'contract-test/1.0', Accept: 'application/json', Authorization: authorization, ...headers });
  if (body !== undefined) test = test.send(body as object);
  return test.then((response) => response);
}

/** A request body the document accepts, by the name of the operation's body schema. */
function validBody(version: Version, schema: string | undefined, serial: number): unknown {
  if (schema === undefined) return undefined;
  if (schema.endsWith('Patch')) return {};
  // A create below a parent takes the collection's own body (VisitV1WriteBelowPet: a visit of pet 1, below pet 1).
  const kind = schema.replace(/V[0-9]+Write(Below[A-Za-z]+)?$/, '');
  const bodies: Record<string, unknown> = {
    Order: { item: 'apples', quantity: 2 },
    Trade: { trade_name: 'harvest' },
    User: { user_name: `common-${version}-${serial}` },
    Account:
      version === 'v1'
        ? { user_name: 'ann', e_mail: 'ann@example.test', state: 'active' }
        : { user_name: 'ann', e_mail: 'ann@example.test', profile: { state: 'active' } },
    Profiles: { full_name: 'Ann A' },
    GuiLang: { lang: 'fr-FR' },
    QueuedJobsReindexJob: { type: 'reindex' },
    QueuedJobsImportOrderJob: { type: 'import-order', item: 'apples', quantity: 1 },
    Product: { title: 'Mug' },
    Batch: { label: 'nightly' },
    Pet: { pet_name: 'Rex' },
    Diets: { food: 'senior' },
    Reminders: { enabled: true },
    Visit: { pet: 1, scheduled_at: '2026-12-02T09:30:00Z' },
    Note: { owner: USER, title: `note ${serial}` },
    NotesLayout: { view: 'grid' },
    // A move of a reservation, each to a room of its own.
    postReservationMoves: { room: `moved-${version}-${serial}`, starts_at: daysAhead(40), ends_at: daysAhead(40, 2) },
    // Each in a room of its own: a reservation overlapping another of the same room is 409.
    Reservation: {
      guest_name: 'Ann',
      room: `common-${version}-${serial}`,
      starts_at: daysAhead(30),
      ends_at: daysAhead(30, 2),
    },
  };
  if (!(kind in bodies)) throw new Error(`no example body for ${schema}`);
  return bodies[kind];
}

beforeAll(async () => {
  const queue = generated.jobQueues[0]!;
  api = await startApi({
    // The example API, plus one job type (not in the documents) that runs until the test releases it: the only way to see 423.
    api: {
      ...generated,
      jobQueues: [{ ...queue, jobs: { ...queue.jobs, wait: { payload: z.object({}), run: () => gate.opened } } }],
    },
    env: {
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      RATE_LIMIT_RESOURCE: `${LIMIT}/3600`,
      RATE_LIMIT_SERVICE: `${LIMIT}/3600`,
      RATE_LIMIT_SETTING: `${LIMIT}/3600`,
    },
  });
  // The main client acts for a user (notes are their owner's) and holds the scope the notes' writes and the notes layout's PUT need.
  auth.main = `Bearer ${issueToken(api.databaseUrl, 'contract-client', { user: USER, scopes: ['notes:write'] })}`;
  auth.refused = `Bearer ${issueToken(api.databaseUrl, 'refused-client')}`;
  expect(tokenCli(api.databaseUrl, 'refuse-client', 'refused-client').status).toBe(0);
  // The greedy client holds the scope too, so what refuses its scoped writes is its spent budget (429), not a missing scope.
  auth.greedy = `Bearer ${issueToken(api.databaseUrl, 'greedy-client', { user: USER, scopes: ['notes:write'] })}`;
  const [v1, v2] = await Promise.all([
    startPrismProxy(documentPath('v1'), api.url),
    startPrismProxy(documentPath('v2'), api.url),
  ]);
  proxies.v1 = v1;
  proxies.v2 = v2;
  // The greedy client spends its whole call budget in every family, so its next call anywhere gets 429.
  // Ten calls at a time: the budget is counted the same, and a loaded machine spends less time waiting.
  for (const path of ['/v1/orders', '/services/v1/search?q=a&category=orders', '/settings/v1/gui/lang']) {
    for (let call = 0; call < LIMIT; call += 10)
      await Promise.all(
        Array.from({ length: 10 }, () =>
          raw(api.url, { method: 'get', path, status: 200, authorization: auth.greedy }),
        ),
      );
  }
}, 300_000);

afterAll(async () => {
  gate.release();
  await Promise.all(Object.values(proxies).map((proxy) => proxy.stop()));
  await api?.close();
});

describe('the contract: every operation, every status it can produce, through a validating proxy', () => {
  beforeEach(() => {
    violations.length = 0;
    unexpected.length = 0;
  });

  it.each(VERSIONS)(
    "%s: the operations' own statuses",
    async (version) => {
      const v = version;
      const ids: Record<string, number> = {};

      // Orders: the full life of a resource, and every status its operations document.
      for (const [collection, body, big, patch] of [
        ['orders', { item: 'apples', quantity: 2 }, { item: BIG, quantity: 1 }, { quantity: 3 }],
        ['users', { user_name: `ann-${v}` }, { user_name: BIG }, { user_name: `ann-${v}-renamed` }],
        [
          'accounts',
          v === 'v1'
            ? { user_name: 'ann', e_mail: 'ann@example.test', state: 'active', title: 'Dr' }
            : { user_name: 'ann', e_mail: 'ann@example.test', profile: { state: 'active', title: 'Dr' } },
          { user_name: BIG, e_mail: 'a@example.test' },
          { e_mail: 'ann@example.org' },
        ],
        [
          'pets',
          { pet_name: 'Rex', born_at: '2020-04-01T10:00:00+02:00' },
          { pet_name: BIG },
          { born_at: '2020-04-01T08:00:00Z' },
        ],
        // The first pet of the v1 run stays: each visit is for it.
        [
          'visits',
          { pet: 1, scheduled_at: '2026-12-02T09:30:00+02:00', fee: 40 },
          { pet: 1, scheduled_at: '2026-12-02T09:30:00Z', reason: BIG },
          { scheduled_at: '2026-12-02T10:00:00Z' },
        ],
        [
          'notes',
          { owner: USER, title: `first ${v}`, text: 'remember' },
          { owner: USER, title: 'big', text: BIG },
          { title: `first ${v} again` },
        ],
        [
          'reservations',
          { guest_name: 'Ann A', room: `blue-${v}`, starts_at: daysAhead(10), ends_at: daysAhead(10, 2) },
          { guest_name: 'Ann C', room: BIG, starts_at: daysAhead(10), ends_at: daysAhead(10, 2) },
          { guest_name: 'Ann B' },
        ],
      ] as const) {
        const created = await send(v, { method: 'post', path: `/${v}/${collection}`, body, status: 201 });
        const id = created.body.identity as number;
        ids[collection] = id;
        await send(v, { method: 'post', path: `/${v}/${collection}`, body: big, status: 413 });
        for (const path of [`/${v}/${collection}`, `/${v}/${collection}/(list)`]) {
          const list = await send(v, { method: 'get', path: `${path}?limit=5&offset=0`, status: 200 });
          await send(v, {
            method: 'get',
            path: `${path}?limit=5&offset=0`,
            status: 304,
            headers: { 'If-None-Match': list.headers.etag! },
          });
        }
        await send(v, {
          method: 'get',
          path: `/${v}/${collection}/${id}`,
          status: 200,
          headers: { 'X-Result-Fields': 'created_at' },
          // Only created_at comes back, as asked: a validating proxy would count the missing members the
          // representation otherwise always has; the document's checker reads X-Result-Fields as documented.
          direct: true,
        });
        const one = await send(v, { method: 'get', path: `/${v}/${collection}/${id}`, status: 200 });
        await send(v, {
          method: 'get',
          path: `/${v}/${collection}/${id}`,
          status: 304,
          headers: { 'If-None-Match': one.headers.etag! },
        });
        await send(v, { method: 'get', path: `/${v}/${collection}/424242`, status: 404 });
        await send(v, {
          method: 'put',
          path: `/${v}/${collection}/${id}`,
          body,
          status: 200,
          headers: { 'If-Match': one.headers.etag! },
        });
        await send(v, { method: 'put', path: `/${v}/${collection}/424242`, body, status: 404 });
        await send(v, {
          method: 'put',
          path: `/${v}/${collection}/${id}`,
          body,
          status: 412,
          headers: { 'If-Match': '"stale"' },
        });
        await send(v, { method: 'put', path: `/${v}/${collection}/${id}`, body: big, status: 413 });
        await send(v, { method: 'patch', path: `/${v}/${collection}/${id}`, body: patch, status: 200 });
        await send(v, { method: 'patch', path: `/${v}/${collection}/424242`, body: patch, status: 404 });
        await send(v, {
          method: 'patch',
          path: `/${v}/${collection}/${id}`,
          body: patch,
          status: 412,
          headers: { 'If-Match': '"stale"' },
        });
        await send(v, { method: 'patch', path: `/${v}/${collection}/${id}`, body: big, status: 413 });
        // A spare user needs a name of its own, a spare reservation a room of its own (the same one would overlap: 409).
        const spareBody =
          collection === 'users'
            ? { user_name: `spare-${v}` }
            : collection === 'reservations'
              ? { ...body, room: `spare-${v}` }
              : body;
        const spare = await send(v, { method: 'post', path: `/${v}/${collection}`, body: spareBody, status: 201 });
        await send(v, {
          method: 'delete',
          path: `/${v}/${collection}/${spare.body.identity}`,
          status: 412,
          headers: { 'If-Match': '"stale"' },
        });
        await send(v, { method: 'delete', path: `/${v}/${collection}/${spare.body.identity}`, status: 204 });
        await send(v, { method: 'delete', path: `/${v}/${collection}/${spare.body.identity}`, status: 404 });
      }

      // Users: a duplicate name, on create, replace and update.
      const other = await send(v, {
        method: 'post',
        path: `/${v}/users`,
        body: { user_name: `bob-${v}` },
        status: 201,
      });
      await send(v, { method: 'post', path: `/${v}/users`, body: { user_name: `bob-${v}` }, status: 409 });
      await send(v, { method: 'put', path: `/${v}/users/${ids.users}`, body: { user_name: `bob-${v}` }, status: 409 });
      await send(v, {
        method: 'patch',
        path: `/${v}/users/${ids.users}`,
        body: { user_name: `bob-${v}` },
        status: 409,
      });

      // Trades: a reference to an order, missing (422), and the order it holds cannot go (409).
      const trade = await send(v, {
        method: 'post',
        path: `/${v}/trades`,
        body: { trade_name: 'harvest', order: ids.orders },
        status: 201,
      });
      const tradeId = trade.body.identity as number;
      await send(v, {
        method: 'post',
        path: `/${v}/trades`,
        body: { trade_name: 'ghost', order: 424242 },
        status: 422,
      });
      await send(v, { method: 'post', path: `/${v}/trades`, body: { trade_name: BIG }, status: 413 });
      const tradeList = await send(v, {
        method: 'get',
        path: `/${v}/trades?trade_name=harvest`,
        status: 200,
        headers: { 'X-Expansion-Fields': 'true' },
      });
      await send(v, {
        method: 'get',
        path: `/${v}/trades?trade_name=harvest`,
        status: 304,
        headers: { 'X-Expansion-Fields': 'true', 'If-None-Match': tradeList.headers.etag! },
      });
      const tradeListForm = await send(v, { method: 'get', path: `/${v}/trades/(list)`, status: 200 });
      await send(v, {
        method: 'get',
        path: `/${v}/trades/(list)`,
        status: 304,
        headers: { 'If-None-Match': tradeListForm.headers.etag! },
      });
      const oneTrade = await send(v, {
        method: 'get',
        path: `/${v}/trades/${tradeId}`,
        status: 200,
        headers: { 'X-Expansion-Fields': 'true' },
      });
      await send(v, {
        method: 'get',
        path: `/${v}/trades/${tradeId}`,
        status: 304,
        headers: { 'X-Expansion-Fields': 'true', 'If-None-Match': oneTrade.headers.etag! },
      });
      await send(v, { method: 'get', path: `/${v}/trades/424242`, status: 404 });
      await send(v, {
        method: 'put',
        path: `/${v}/trades/${tradeId}`,
        body: { trade_name: 'harvest', order: `${api.url}/${v}/orders/${ids.orders}` },
        status: 200,
      });
      await send(v, {
        method: 'put',
        path: `/${v}/trades/${tradeId}`,
        body: { trade_name: 'harvest', order: 424242 },
        status: 422,
      });
      await send(v, { method: 'put', path: `/${v}/trades/424242`, body: { trade_name: 'x' }, status: 404 });
      await send(v, {
        method: 'put',
        path: `/${v}/trades/${tradeId}`,
        body: { trade_name: 'x' },
        status: 412,
        headers: { 'If-Match': '"stale"' },
      });
      await send(v, { method: 'put', path: `/${v}/trades/${tradeId}`, body: { trade_name: BIG }, status: 413 });
      await send(v, { method: 'patch', path: `/${v}/trades/${tradeId}`, body: { order: 424242 }, status: 422 });
      await send(v, { method: 'patch', path: `/${v}/trades/${tradeId}`, body: { order: null }, status: 200 });
      await send(v, { method: 'patch', path: `/${v}/trades/${tradeId}`, body: { order: ids.orders }, status: 200 });
      await send(v, { method: 'patch', path: `/${v}/trades/424242`, body: {}, status: 404 });
      await send(v, {
        method: 'patch',
        path: `/${v}/trades/${tradeId}`,
        body: {},
        status: 412,
        headers: { 'If-Match': '"stale"' },
      });
      await send(v, { method: 'patch', path: `/${v}/trades/${tradeId}`, body: { trade_name: BIG }, status: 413 });
      await send(v, { method: 'delete', path: `/${v}/orders/${ids.orders}`, status: 409 });
      await send(v, { method: 'delete', path: `/${v}/trades/424242`, status: 404 });
      await send(v, {
        method: 'delete',
        path: `/${v}/trades/${tradeId}`,
        status: 412,
        headers: { 'If-Match': '"stale"' },
      });
      await send(v, { method: 'delete', path: `/${v}/trades/${tradeId}`, status: 204 });
      const kept = await send(v, {
        method: 'post',
        path: `/${v}/trades`,
        body: { trade_name: 'kept', order: `/${v}/orders/${ids.orders}` },
        status: 201,
      });

      // Visits: each for a pet, which must exist (422) and cannot go while a visit refers to it (409).
      const visitPath = `/${v}/visits/${ids.visits}`;
      await send(v, {
        method: 'post',
        path: `/${v}/visits`,
        body: { pet: 424242, scheduled_at: '2026-12-02T09:30:00Z' },
        status: 422,
      });
      await send(v, {
        method: 'put',
        path: visitPath,
        body: { pet: 424242, scheduled_at: '2026-12-02T09:30:00Z' },
        status: 422,
      });
      await send(v, { method: 'patch', path: visitPath, body: { pet: 424242 }, status: 422 });
      await send(v, { method: 'delete', path: `/${v}/pets/1`, status: 409 });
      // A sorted list with comparison filters: the parameters the document declares for them.
      const sorted = await send(v, {
        method: 'get',
        path: `/${v}/visits?sort=-scheduled_at,fee&scheduled_at.gte=2026-12-01T00:00:00Z&fee.lt=100&limit=5`,
        status: 200,
      });
      expect(sorted.body.length).toBeGreaterThan(0);

      // A pet's visits below it: listed and read there, created with the pet of the path; a missing pet
      // is 404 on each, a body naming another pet 422.
      const petVisits = `/${v}/pets/${ids.pets}/visits`;
      const visitBody = { scheduled_at: '2026-12-03T09:30:00Z' };
      ids.petVisit = (await send(v, { method: 'post', path: petVisits, body: visitBody, status: 201 })).body.identity;
      await send(v, { method: 'post', path: petVisits, body: { ...visitBody, pet: 424242 }, status: 422 });
      await send(v, { method: 'post', path: `/${v}/pets/424242/visits`, body: visitBody, status: 404 });
      for (const path of [petVisits, `${petVisits}/(list)`]) {
        const list = await send(v, { method: 'get', path: `${path}?sort=-scheduled_at&limit=5`, status: 200 });
        expect(list.body.map((visit: { visit_id: number }) => visit.visit_id)).toContain(ids.petVisit);
        await send(v, {
          method: 'get',
          path: `${path}?sort=-scheduled_at&limit=5`,
          status: 304,
          headers: { 'If-None-Match': list.headers.etag! },
        });
        await send(v, { method: 'get', path: path.replace(petVisits, `/${v}/pets/424242/visits`), status: 404 });
      }
      const petVisit = await send(v, { method: 'get', path: `${petVisits}/${ids.petVisit}`, status: 200 });
      await send(v, {
        method: 'get',
        path: `${petVisits}/${ids.petVisit}`,
        status: 304,
        headers: { 'If-None-Match': petVisit.headers.etag! },
      });
      await send(v, { method: 'get', path: `${petVisits}/424242`, status: 404 });
      await send(v, { method: 'post', path: petVisits, body: { ...visitBody, reason: BIG }, status: 413 });

      // Notes: one that follows up another, missing (422), and the note it follows up cannot go (409).
      const followUp = await send(v, {
        method: 'post',
        path: `/${v}/notes`,
        body: { owner: USER, title: 'follow-up', about: ids.notes },
        status: 201,
      });
      await send(v, {
        method: 'post',
        path: `/${v}/notes`,
        body: { owner: USER, title: 'ghost', about: 424242 },
        status: 422,
      });
      await send(v, {
        method: 'put',
        path: `/${v}/notes/${followUp.body.identity}`,
        body: { owner: USER, title: 'ghost', about: 424242 },
        status: 422,
      });
      await send(v, {
        method: 'patch',
        path: `/${v}/notes/${followUp.body.identity}`,
        body: { about: 424242 },
        status: 422,
      });
      await send(v, { method: 'delete', path: `/${v}/notes/${ids.notes}`, status: 409 });

      // Reservations: a new one overlapping another of its room (409 room_taken), or starting in the past (422 starts_in_past).
      await send(v, {
        method: 'post',
        path: `/${v}/reservations`,
        body: { guest_name: 'Bob', room: `blue-${v}`, starts_at: daysAhead(10, 1), ends_at: daysAhead(10, 3) },
        status: 409,
      });
      await send(v, {
        method: 'post',
        path: `/${v}/reservations`,
        body: {
          guest_name: 'Bob',
          room: `green-${v}`,
          starts_at: '2020-01-01T10:00:00Z',
          ends_at: '2020-01-01T12:00:00Z',
        },
        status: 422,
      });

      // A reservation's own operation: a move to a free slot (200), into blue's taken one (409 room_taken), of none
      // (404), with a body over the limit (413).
      const moving = await send(v, {
        method: 'post',
        path: `/${v}/reservations`,
        body: { guest_name: 'Cy', room: `yellow-${v}`, starts_at: daysAhead(20), ends_at: daysAhead(20, 2) },
        status: 201,
      });
      const moves = `/${v}/reservations/${moving.body.identity}/moves`;
      await send(v, {
        method: 'post',
        path: moves,
        body: { room: `orange-${v}`, starts_at: daysAhead(21), ends_at: daysAhead(21, 2) },
        status: 200,
      });
      await send(v, {
        method: 'post',
        path: moves,
        body: { room: `blue-${v}`, starts_at: daysAhead(10, 1), ends_at: daysAhead(10, 3) },
        status: 409,
      });
      await send(v, {
        method: 'post',
        path: `/${v}/reservations/424242/moves`,
        body: { room: `orange-${v}`, starts_at: daysAhead(22), ends_at: daysAhead(22, 2) },
        status: 404,
      });
      await send(v, {
        method: 'post',
        path: moves,
        body: { room: BIG, starts_at: daysAhead(22), ends_at: daysAhead(22, 2) },
        status: 413,
      });

      // Audits: written by the reservations' effects (one made, one cancelled above), read only.
      for (const path of [`/${v}/audits?limit=5`, `/${v}/audits/(list)?limit=5`]) {
        const listed = await send(v, { method: 'get', path, status: 200 });
        expect(listed.body.length).toBeGreaterThan(0);
        await send(v, { method: 'get', path, status: 304, headers: { 'If-None-Match': listed.headers.etag! } });
      }
      const audited = await send(v, { method: 'get', path: `/${v}/audits?action=reserved&limit=1`, status: 200 });
      ids.audits = audited.body[0].audit_id as number;
      const audit = await send(v, { method: 'get', path: `/${v}/audits/${ids.audits}`, status: 200 });
      await send(v, {
        method: 'get',
        path: `/${v}/audits/${ids.audits}`,
        status: 304,
        headers: { 'If-None-Match': audit.headers.etag! },
      });
      await send(v, { method: 'get', path: `/${v}/audits/424242`, status: 404 });

      // The profile aggregate, through its user.
      const profilePath = `/${v}/users/${other.body.identity}/profiles`;
      await send(v, { method: 'get', path: profilePath, status: 200 });
      await send(v, { method: 'put', path: profilePath, body: { full_name: 'Bob B', state: 'active' }, status: 200 });
      const profile = await send(v, { method: 'get', path: profilePath, status: 200 });
      await send(v, {
        method: 'get',
        path: profilePath,
        status: 304,
        headers: { 'If-None-Match': profile.headers.etag! },
      });
      await send(v, { method: 'get', path: `/${v}/users/424242/profiles`, status: 404 });
      await send(v, { method: 'put', path: `/${v}/users/424242/profiles`, body: { full_name: 'Nobody' }, status: 404 });
      await send(v, {
        method: 'put',
        path: profilePath,
        body: { full_name: 'Bob B' },
        status: 412,
        headers: { 'If-Match': '"stale"' },
      });
      await send(v, { method: 'put', path: profilePath, body: { full_name: BIG }, status: 413 });
      await send(v, { method: 'patch', path: profilePath, body: { title: 'Dr' }, status: 200 });
      await send(v, { method: 'patch', path: `/${v}/users/424242/profiles`, body: { title: 'Dr' }, status: 404 });
      await send(v, {
        method: 'patch',
        path: profilePath,
        body: { title: 'Dr' },
        status: 412,
        headers: { 'If-Match': '"stale"' },
      });
      await send(v, { method: 'patch', path: profilePath, body: { title: BIG }, status: 413 });

      // The diet aggregate of a pet: its declared defaults before the first write, then PATCH and PUT.
      const dietPath = `/${v}/pets/${ids.pets}/diets`;
      const defaults = await send(v, { method: 'get', path: dietPath, status: 200 });
      expect(defaults.body).toEqual({ food: 'standard', meals_per_day: 2 });
      await send(v, {
        method: 'get',
        path: dietPath,
        status: 304,
        headers: { 'If-None-Match': defaults.headers.etag! },
      });
      await send(v, { method: 'get', path: `/${v}/pets/424242/diets`, status: 404 });
      expect(
        (await send(v, { method: 'patch', path: dietPath, body: { notes: 'no grain' }, status: 200 })).body,
      ).toEqual({ food: 'standard', meals_per_day: 2, notes: 'no grain' });
      await send(v, { method: 'patch', path: `/${v}/pets/424242/diets`, body: {}, status: 404 });
      await send(v, { method: 'patch', path: dietPath, body: {}, status: 412, headers: { 'If-Match': '"stale"' } });
      await send(v, { method: 'patch', path: dietPath, body: { notes: BIG }, status: 413 });
      await send(v, { method: 'put', path: dietPath, body: { food: 'senior' }, status: 200 });
      await send(v, { method: 'put', path: `/${v}/pets/424242/diets`, body: {}, status: 404 });
      await send(v, { method: 'put', path: dietPath, body: {}, status: 412, headers: { 'If-Match': '"stale"' } });
      await send(v, { method: 'put', path: dietPath, body: { notes: BIG }, status: 413 });

      // Services: search, the document itself, queued jobs.
      const found = await send(v, {
        method: 'get',
        path: `/services/${v}/search?q=bob&category=users&limit=10`,
        status: 200,
      });
      expect(found.body.length).toBeGreaterThan(0);
      await send(v, {
        method: 'get',
        path: `/services/${v}/search?q=bob&category=users&limit=10`,
        status: 304,
        headers: { 'If-None-Match': found.headers.etag! },
      });
      // Without category: every searchable collection, each hit naming its collection and URI.
      const hits = await send(v, { method: 'get', path: `/services/${v}/search?q=bob&limit=10`, status: 200 });
      expect(hits.body.map((hit: { collection: string }) => hit.collection)).toContain('users');
      const document = await send(v, { method: 'get', path: `/services/${v}/openapi`, status: 200 });
      await send(v, {
        method: 'get',
        path: `/services/${v}/openapi`,
        status: 304,
        headers: { 'If-None-Match': document.headers.etag! },
      });
      const job = await send(v, {
        method: 'put',
        path: `/services/${v}/queued/jobs`,
        body: { type: 'reindex', collections: ['users'] },
        status: 202,
      });
      await send(v, {
        method: 'put',
        path: `/services/${v}/queued/jobs`,
        body: { type: 'reindex', collections: [BIG] },
        status: 413,
      });
      await until(
        async () =>
          (await raw(api.url, { method: 'get', path: `/services/${v}/queued/jobs/${job.body.job_id}`, status: 200 }))
            .body,
        (state) => state.state === 'succeeded',
      );
      const finished = await send(v, {
        method: 'get',
        path: `/services/${v}/queued/jobs/${job.body.job_id}`,
        status: 200,
      });
      await send(v, {
        method: 'get',
        path: `/services/${v}/queued/jobs/${job.body.job_id}`,
        status: 304,
        headers: { 'If-None-Match': finished.headers.etag! },
      });
      await send(v, { method: 'get', path: `/services/${v}/queued/jobs/424242`, status: 404 });
      await send(v, { method: 'delete', path: `/services/${v}/queued/jobs/${job.body.job_id}`, status: 204 });
      await send(v, { method: 'delete', path: `/services/${v}/queued/jobs/${job.body.job_id}`, status: 404 });
      gate = newGate();
      const waiting = await raw(api.url, {
        method: 'put',
        path: `/services/${v}/queued/jobs`,
        body: { type: 'wait' },
        status: 202,
      });
      await until(
        async () =>
          (
            await raw(api.url, {
              method: 'get',
              path: `/services/${v}/queued/jobs/${waiting.body.job_id}`,
              status: 200,
            })
          ).body,
        (state) => state.state === 'running',
      );
      await send(v, { method: 'delete', path: `/services/${v}/queued/jobs/${waiting.body.job_id}`, status: 423 });
      // The caller's own jobs: the waiting one at least.
      const ownJobs = await send(v, { method: 'get', path: `/services/${v}/queued/jobs?state=running`, status: 200 });
      expect(ownJobs.body).toEqual([expect.objectContaining({ job_id: waiting.body.job_id, state: 'running' })]);
      await send(v, {
        method: 'get',
        path: `/services/${v}/queued/jobs?state=running`,
        status: 304,
        headers: { 'If-None-Match': ownJobs.headers.etag! },
      });

      // Health: open routes, no token needed (the main client's token is ignored).
      for (const path of [`/services/${v}/health`, `/services/${v}/health/ready`]) {
        const health = await send(v, { method: 'get', path, status: 200, authorization: '' });
        await send(v, { method: 'get', path, status: 304, headers: { 'If-None-Match': health.headers.etag! } });
      }

      // The caller's setting.
      await send(v, { method: 'put', path: `/settings/${v}/gui/lang`, body: { lang: 'fr-fr' }, status: 200 });
      await send(v, { method: 'put', path: `/settings/${v}/gui/lang`, body: { lang: BIG }, status: 413 });
      const lang = await send(v, { method: 'get', path: `/settings/${v}/gui/lang`, status: 200 });
      expect(lang.body).toEqual({ lang: 'fr-FR' });
      await send(v, {
        method: 'get',
        path: `/settings/${v}/gui/lang`,
        status: 304,
        headers: { 'If-None-Match': lang.headers.etag! },
      });
      await send(v, { method: 'patch', path: `/settings/${v}/gui/lang`, body: { lang: 'de-de' }, status: 200 });
      await send(v, { method: 'patch', path: `/settings/${v}/gui/lang`, body: { lang: BIG }, status: 413 });
      // Written on a version the caller no longer holds: 412, for every setting's PUT and PATCH.
      for (const [setting, body] of [
        ['gui/lang', { lang: 'it-it' }],
        ['reminders', { enabled: true }],
        ['notes/layout', { view: 'list' }],
      ] as const)
        for (const method of ['put', 'patch'] as const)
          await send(v, {
            method,
            path: `/settings/${v}/${setting}`,
            body,
            status: 412,
            headers: { 'If-Match': '"stale"' },
          });
      const reminders = await send(v, { method: 'get', path: `/settings/${v}/reminders`, status: 200 });
      await send(v, {
        method: 'get',
        path: `/settings/${v}/reminders`,
        status: 304,
        headers: { 'If-None-Match': reminders.headers.etag! },
      });
      await send(v, { method: 'patch', path: `/settings/${v}/reminders`, body: { hours_before: 48 }, status: 200 });
      // Reminders hold no string: a body too big for the limit is one the document refuses, so it goes to the server directly.
      await send(v, {
        method: 'patch',
        path: `/settings/${v}/reminders`,
        body: { hours_before: BIG },
        status: 413,
        direct: true,
      });
      await send(v, { method: 'put', path: `/settings/${v}/reminders`, body: { enabled: false }, status: 200 });
      await send(v, {
        method: 'put',
        path: `/settings/${v}/reminders`,
        body: { hours_before: BIG },
        status: 413,
        direct: true,
      });

      // The notes layout: changing it needs notes:write, which the main client's token holds. Its one field
      // is list or grid: a body too big for the limit is one the document refuses, so it goes to the server directly.
      await send(v, { method: 'put', path: `/settings/${v}/notes/layout`, body: { view: 'grid' }, status: 200 });
      await send(v, {
        method: 'put',
        path: `/settings/${v}/notes/layout`,
        body: { view: BIG },
        status: 413,
        direct: true,
      });
      const layout = await send(v, { method: 'get', path: `/settings/${v}/notes/layout`, status: 200 });
      expect(layout.body).toEqual({ view: 'grid' });
      await send(v, {
        method: 'get',
        path: `/settings/${v}/notes/layout`,
        status: 304,
        headers: { 'If-None-Match': layout.headers.etag! },
      });
      await send(v, { method: 'patch', path: `/settings/${v}/notes/layout`, body: { view: 'list' }, status: 200 });
      // Its rule keeps columns to the grid view: 422 on PUT and on PATCH.
      await send(v, {
        method: 'put',
        path: `/settings/${v}/notes/layout`,
        body: { view: 'list', columns: 2 },
        status: 422,
      });
      await send(v, { method: 'patch', path: `/settings/${v}/notes/layout`, body: { columns: 2 }, status: 422 });
      await send(v, {
        method: 'patch',
        path: `/settings/${v}/notes/layout`,
        body: { view: BIG },
        status: 413,
        direct: true,
      });

      // The statuses beyond the conventions' own. 204 on every PUT and PATCH asked Prefer: return=minimal.
      const minimal = { Prefer: 'return=minimal' };
      for (const [path, body] of [
        [`/${v}/orders/${ids.orders}`, { item: 'pears', quantity: 1 }],
        [`/${v}/users/${ids.users}`, { user_name: `ann-${v}-minimal` }],
        [
          `/${v}/accounts/${ids.accounts}`,
          v === 'v1'
            ? { user_name: 'ann', e_mail: 'ann@example.test' }
            : { user_name: 'ann', e_mail: 'ann@example.test' },
        ],
        [`/${v}/trades/${kept.body.identity}`, { trade_name: 'kept' }],
        [`/${v}/pets/${ids.pets}`, { pet_name: 'Rex' }],
        [`/${v}/visits/${ids.visits}`, { pet: 1, scheduled_at: '2026-12-02T09:30:00Z' }],
        [`/${v}/notes/${ids.notes}`, { owner: USER, title: `first ${v}` }],
        [
          `/${v}/reservations/${ids.reservations}`,
          { guest_name: 'Ann A', room: `blue-${v}`, starts_at: daysAhead(10), ends_at: daysAhead(10, 2) },
        ],
      ] as const) {
        await send(v, { method: 'put', path, body, status: 204, headers: minimal });
        await send(v, { method: 'patch', path, body: {}, status: 204, headers: minimal });
      }
      for (const [path, body] of [
        [profilePath, { full_name: 'Bob B' }],
        [dietPath, { food: 'senior' }],
        [`/settings/${v}/gui/lang`, { lang: 'fr-fr' }],
        [`/settings/${v}/reminders`, { enabled: true }],
        [`/settings/${v}/notes/layout`, { view: 'list' }],
      ] as const) {
        await send(v, { method: 'put', path, body, status: 204, headers: minimal });
        await send(v, { method: 'patch', path, body: {}, status: 204, headers: minimal });
      }

      // Products: clients name them, so PUT creates (201), then replaces (200).
      const sku = `mug-${v}`;
      const productPath = `/${v}/products/${sku}`;
      await send(v, { method: 'put', path: productPath, body: { title: 'Mug' }, status: 201 });
      const product = await send(v, {
        method: 'put',
        path: productPath,
        body: { title: 'Mug', price: 4 },
        status: 200,
      });
      await send(v, { method: 'put', path: productPath, body: { title: 'Mug' }, status: 204, headers: minimal });
      await send(v, {
        method: 'put',
        path: productPath,
        body: { title: 'Mug' },
        status: 412,
        headers: { 'If-Match': '"stale"' },
      });
      await send(v, { method: 'put', path: productPath, body: { title: BIG }, status: 413 });
      await send(v, { method: 'patch', path: productPath, body: { price: 5 }, status: 200 });
      await send(v, { method: 'patch', path: productPath, body: { price: 5 }, status: 204, headers: minimal });
      await send(v, { method: 'patch', path: `/${v}/products/no-such-mug`, body: {}, status: 404 });
      await send(v, { method: 'patch', path: productPath, body: {}, status: 412, headers: { 'If-Match': '"stale"' } });
      await send(v, { method: 'patch', path: productPath, body: { title: BIG }, status: 413 });
      for (const path of [`/${v}/products`, `/${v}/products/(list)`, productPath]) {
        const listed = await send(v, { method: 'get', path, status: 200 });
        await send(v, { method: 'get', path, status: 304, headers: { 'If-None-Match': listed.headers.etag! } });
      }
      expect(product.body.identity).toBeUndefined();
      await send(v, { method: 'get', path: `/${v}/products/no-such-mug`, status: 404 });
      await send(v, { method: 'put', path: `/${v}/products/spare-${v}`, body: { title: 'Spare' }, status: 201 });
      // A visit's products (an array of references): a product one names cannot go (409); served as URIs, or inlined.
      const usedIn = `/${v}/visits/${ids.visits}`;
      await send(v, { method: 'patch', path: usedIn, body: { products: [sku, `spare-${v}`] }, status: 200 });
      await send(v, { method: 'get', path: usedIn, status: 200, headers: { 'X-Expansion-Fields': 'true' } });
      await send(v, { method: 'get', path: `/${v}/visits?products.contains=spare-${v}`, status: 200 });
      await send(v, { method: 'delete', path: `/${v}/products/spare-${v}`, status: 409 });
      await send(v, { method: 'patch', path: usedIn, body: { products: [sku] }, status: 200 });
      await send(v, {
        method: 'delete',
        path: `/${v}/products/spare-${v}`,
        status: 412,
        headers: { 'If-Match': '"stale"' },
      });
      await send(v, { method: 'delete', path: `/${v}/products/spare-${v}`, status: 204 });
      await send(v, { method: 'delete', path: `/${v}/products/spare-${v}`, status: 404 });

      // Batches: every write is a job (202); GET of a finished create's job is 303 to the batch.
      const finishedJob = async (location: string) => {
        const jobPath = new URL(location).pathname;
        await until(
          async () => (await raw(api.url, { method: 'get', path: jobPath, status: 200 })).status,
          (status) => status === 303,
        );
        return send(v, { method: 'get', path: jobPath, status: 303, direct: true });
      };
      const batchJob = await send(v, {
        method: 'post',
        path: `/${v}/batches`,
        body: { label: 'nightly' },
        status: 202,
      });
      const batchPath = new URL((await finishedJob(batchJob.headers.location!)).headers.location!).pathname;
      ids.batches = Number(batchPath.split('/').at(-1));
      await send(v, { method: 'post', path: `/${v}/batches`, body: { label: BIG }, status: 413 });
      for (const method of ['put', 'patch'] as const) {
        await send(v, { method, path: batchPath, body: { label: 'weekly' }, status: 202 });
        await send(v, { method, path: `/${v}/batches/424242`, body: { label: 'x' }, status: 404 });
        await send(v, {
          method,
          path: batchPath,
          body: { label: 'x' },
          status: 412,
          headers: { 'If-Match': '"stale"' },
        });
        await send(v, { method, path: batchPath, body: { label: BIG }, status: 413 });
      }
      for (const path of [`/${v}/batches`, `/${v}/batches/(list)`, batchPath]) {
        const listed = await send(v, { method: 'get', path, status: 200 });
        await send(v, { method: 'get', path, status: 304, headers: { 'If-None-Match': listed.headers.etag! } });
      }
      await send(v, { method: 'get', path: `/${v}/batches/424242`, status: 404 });
      await send(v, { method: 'delete', path: `/${v}/batches/424242`, status: 404 });
      await send(v, { method: 'delete', path: batchPath, status: 412, headers: { 'If-Match': '"stale"' } });
      const spareJob = await send(v, { method: 'post', path: `/${v}/batches`, body: { label: 'spare' }, status: 202 });
      const sparePath = new URL((await finishedJob(spareJob.headers.location!)).headers.location!).pathname;
      await send(v, { method: 'delete', path: sparePath, status: 202 });

      // A job that produces an order: 303 once done. Trades were deals: 301 there.
      const imported = await send(v, {
        method: 'put',
        path: `/services/${v}/queued/jobs`,
        body: { type: 'import-order', item: 'imported', quantity: 1 },
        status: 202,
      });
      await finishedJob(imported.headers.location!);
      await send(v, { method: 'head', path: new URL(imported.headers.location!).pathname, status: 303 });
      for (const path of [`/${v}/deals`, `/${v}/deals/(list)`, `/${v}/deals/${kept.body.identity}`])
        await send(v, { method: 'get', path, status: 301, direct: true });

      // A slow operation: 200 (its 102s are seen on a raw socket only).
      const delayed = await send(v, { method: 'get', path: `/services/${v}/delay?ms=10`, status: 200 });
      expect(delayed.body).toEqual({ waited_ms: 10 });
      await send(v, {
        method: 'get',
        path: `/services/${v}/delay?ms=10`,
        status: 304,
        headers: { 'If-None-Match': delayed.headers.etag! },
      });

      // HEAD of every GET, OPTIONS of every path: the same answers without a body, and Allow.
      const paramValues: Record<string, number | string> = {
        order_id: ids.orders!,
        user_id: ids.users!,
        account_id: ids.accounts!,
        job_id: waiting.body.job_id,
        trade_id: kept.body.identity,
        sku,
        batch_id: ids.batches,
        pet_id: ids.pets!,
        // The visit of the pet pet_id names, so that its path below that pet answers too.
        visit_id: ids.petVisit!,
        note_id: ids.notes!,
        reservation_id: ids.reservations!,
        audit_id: ids.audits!,
      };
      for (const operation of operationsOf(documents[v])) {
        const path = operation.template.replace(/\{([^}]+)\}/g, (_match, name: string) =>
          String(paramValues[name] ?? 1),
        );
        if (operation.method === 'options') {
          const options = await send(v, { method: 'options', path, status: 204 });
          expect(options.headers.allow).toBe(operation.allow);
        }
        if (operation.method !== 'head') continue;
        const query = path.includes('/search') ? '?q=bob&category=users' : path.endsWith('/delay') ? '?ms=0' : '';
        // A former path answers HEAD as its GET: 301.
        const moved = operation.statuses.includes('301');
        const head = await send(v, { method: 'head', path: `${path}${query}`, status: moved ? 301 : 200 });
        if (operation.statuses.includes('304'))
          await send(v, {
            method: 'head',
            path: `${path}${query}`,
            status: 304,
            headers: { 'If-None-Match': head.headers.etag! },
          });
        // A client-chosen identifier is any word; the others are numbers.
        const missing = operation.template.endsWith('{sku}')
          ? path.replace(sku, 'no-such-mug')
          : path.replace(/\/[0-9]+(\/profiles|\/diets|\/visits|\/visits\/\(list\))?$/, '/424242$1');
        if (operation.statuses.includes('404')) await send(v, { method: 'head', path: missing, status: 404 });
      }
      gate.release();
      await until(
        async () =>
          (
            await raw(api.url, {
              method: 'get',
              path: `/services/${v}/queued/jobs/${waiting.body.job_id}`,
              status: 200,
            })
          ).body,
        (state) => state.state === 'succeeded',
      );

      expect(unexpected).toEqual([]);
      expect(violations).toEqual([]);
    },
    180_000,
  );

  it.each(VERSIONS)(
    '%s: the statuses every operation can answer (400, 401, 403, 406, 429)',
    async (version) => {
      let serial = 0;
      for (const operation of operationsOf(documents[version])) {
        const path = operation.template.replace(/\{([^}]+)\}/g, '1');
        // A search needs its two parameters; every call may carry a credential in the URL, which gets 400 token_in_url.
        const query = path.includes('/search') ? ['q=a', 'category=users'] : path.endsWith('/delay') ? ['ms=0'] : [];
        const url = (...extra: string[]) =>
          [...query, ...extra].length === 0 ? path : `${path}?${[...query, ...extra].join('&')}`;
        for (const [status, change] of [
          [400, { path: url('access_token=abc') }],
          [401, { path: url(), authorization: auth.invalid }],
          [403, { path: url(), authorization: auth.refused }],
          [406, { path: url(), headers: { Accept: 'text/csv' } }],
          [429, { path: url(), authorization: auth.greedy }],
        ] as const) {
          if (!operation.statuses.includes(String(status))) continue;
          serial += 1;
          await send(version, {
            method: operation.method,
            status,
            body: validBody(version, operation.bodySchema, serial),
            ...change,
          });
        }
      }
      expect(unexpected).toEqual([]);
      expect(violations).toEqual([]);
    },
    180_000,
  );

  it('what the document forbids, Prism refuses and the server refuses too, with the error body and a precise code', async () => {
    const forbidden: [string, Call, string, string | undefined][] = [
      [
        'an identifier that is not an integer from 1',
        { method: 'get', path: '/v1/orders/abc', status: 400 },
        'invalid_identifier',
        'order_id',
      ],
      ['a zero identifier', { method: 'delete', path: '/v2/trades/0', status: 400 }, 'invalid_identifier', 'trade_id'],
      [
        'a job id that is not a number',
        { method: 'get', path: '/services/v1/queued/jobs/first', status: 400 },
        'invalid_identifier',
        'job_id',
      ],
      [
        'null in a create',
        { method: 'post', path: '/v1/trades', body: { trade_name: 'x', order: null }, status: 400 },
        'null_not_allowed',
        'order',
      ],
      [
        'null in a replace',
        { method: 'put', path: '/v2/orders/1', body: { item: 'x', quantity: null }, status: 400 },
        'missing_field',
        'quantity',
      ],
      [
        'an unknown member',
        { method: 'post', path: '/v1/orders', body: { item: 'x', quantity: 1, colour: 'red' }, status: 400 },
        'unknown_field',
        'colour',
      ],
      [
        'an unknown nested member',
        {
          method: 'post',
          path: '/v2/accounts',
          body: { user_name: 'x', e_mail: 'x@example.test', profile: { mood: 'ok' } },
          status: 400,
        },
        'unknown_field',
        'profile.mood',
      ],
      [
        'a missing required member',
        { method: 'put', path: '/v1/orders/1', body: { item: 'x' }, status: 400 },
        'missing_field',
        'quantity',
      ],
      [
        'a string over its maxLength (the default of an indexed string)',
        {
          method: 'post',
          path: '/v1/orders',
          body: { item: 'x'.repeat(STRING_LENGTHS.indexed + 1), quantity: 1 },
          status: 400,
        },
        'value_too_long',
        'item',
      ],
      [
        'a page size out of bounds',
        { method: 'get', path: '/v1/orders?limit=0', status: 400 },
        'invalid_parameter',
        'limit',
      ],
      [
        'a search without q',
        { method: 'get', path: '/services/v1/search?category=users', status: 400 },
        'missing_parameter',
        'q',
      ],
      [
        'an unknown search category',
        { method: 'get', path: '/services/v2/search?q=a&category=profiles', status: 400 },
        'invalid_parameter',
        'category',
      ],
      [
        'an unknown job type',
        { method: 'put', path: '/services/v1/queued/jobs', body: { type: 'nothing' }, status: 400 },
        'unknown_job_type',
        'type',
      ],
      [
        'no User-Agent',
        { method: 'get', path: '/v1/orders', headers: { 'User-Agent': '' }, status: 400 },
        'missing_user_agent',
        'User-Agent',
      ],
      [
        'no credential',
        { method: 'get', path: '/v1/orders', authorization: '', status: 401 },
        'missing_token',
        undefined,
      ],
      [
        'a body that is not JSON',
        { method: 'post', path: '/v1/orders', body: 'item=x', headers: { 'Content-Type': 'text/plain' }, status: 415 },
        'unsupported_media_type',
        undefined,
      ],
    ];
    // Every operation that takes a body: the document takes only JSON, the server answers anything else 415.
    for (const version of VERSIONS) {
      for (const operation of operationsOf(documents[version]).filter(
        (candidate) => candidate.bodySchema !== undefined,
      )) {
        const path = operation.template.replace(/\{([^}]+)\}/g, '1');
        forbidden.push([
          `a ${operation.operationId} body that is not JSON`,
          { method: operation.method, path, body: 'item=x', headers: { 'Content-Type': 'text/plain' }, status: 415 },
          'unsupported_media_type',
          undefined,
        ]);
      }
    }
    const problems: string[] = [];
    for (const [name, call, code, field] of forbidden) {
      const version = /\/(v[0-9]+)\//.exec(call.path)![1] as Version;
      const refused = await raw(proxies[version].url, call);
      if (prismViolation(refused) === undefined)
        problems.push(`${name}: the document allows it (Prism forwarded it: ${refused.status})`);
      const answered = await raw(api.url, call);
      const entry = answered.body?.errors?.[0];
      if (answered.status !== call.status || entry?.code !== code || entry?.field !== field) {
        problems.push(`${name}: the server answered ${answered.status} ${JSON.stringify(answered.body)}`);
      }
      // The server's refusal is itself what the document says that operation answers.
      problems.push(...checkers[version].check(call.method, call.path, answered));
      const path = new URL(call.path, 'http://x').pathname;
      const operation = operationsOf(documents[version]).find(
        (candidate) => candidate.method === call.method && candidate.pattern.test(path),
      );
      if (operation !== undefined) covered.add(`${version} ${operation.operationId} ${answered.status}`);
    }
    expect(problems).toEqual([]);
  });

  it('a method a path does not list: Prism knows no such operation, and the server answers 405 with the Allow its OPTIONS documents', async () => {
    const problems: string[] = [];
    for (const version of VERSIONS) {
      for (const operation of operationsOf(documents[version]).filter((candidate) => candidate.method === 'options')) {
        const path = operation.template.replace(/\{([^}]+)\}/g, '1');
        const listed = operation.allow!.split(', ');
        const method = (['post', 'put', 'patch', 'delete', 'get'] as const).find(
          (candidate) => !listed.includes(candidate.toUpperCase()),
        )!;
        const refused = await raw(proxies[version].url, { method, path, status: 405 });
        if (prismViolation(refused) === undefined)
          problems.push(`${method} ${path}: Prism forwarded it (${refused.status})`);
        const answered = await raw(api.url, {
          method,
          path,
          status: 405,
          body: method === 'get' || method === 'delete' ? undefined : {},
        });
        if (
          answered.status !== 405 ||
          answered.headers.allow !== operation.allow ||
          answered.body.errors?.[0]?.code !== 'method_not_allowed'
        ) {
          problems.push(`${method} ${path}: ${answered.status} Allow ${answered.headers.allow} ${answered.text}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('covered every documented status of every operation, but a server fault and shutting down', () => {
    const missing = VERSIONS.flatMap((version) =>
      operationsOf(documents[version]).flatMap((operation) =>
        operation.statuses
          .filter(
            (status) =>
              !NOT_PRODUCIBLE.has(status) &&
              !NOT_PRODUCIBLE_BY_OPERATION.has(`${version} ${operation.operationId} ${status}`) &&
              !covered.has(`${version} ${operation.operationId} ${status}`),
          )
          .map((status) => `${version} ${operation.operationId} ${status}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
