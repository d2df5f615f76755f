import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { RawRequest } from './raw-http.ts';

/**
 * Requests as an attacker and a careless client send them: every method, paths of every family
 * with good and bad identifiers, odd segments and queries, every header the conventions read with
 * good and bad values, and bodies from well-formed resources to random bytes, compressed right,
 * wrong or not at all. Everything is well-formed HTTP (Node's own parser errors are another test).
 */
export function requestArbitrary(token: string): fc.Arbitrary<RawRequest> {
  // Half of them behave like a client that read the documentation (and so reach the handlers, the
  // store and the serialiser); the other half get anything at all.
  return fc.oneof(requestsOf(token, true), requestsOf(token, false));
}

function requestsOf(token: string, wellBehaved: boolean): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
        { weight: wellBehaved ? 0 : 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'TRACE') },
      ),
      target: wellBehaved ? wellBehavedTarget() : fc.record({ path: pathArbitrary(false), body: bodyArbitrary() }),
      headers: wellBehaved ? wellBehavedHeaders(token) : headersArbitrary(token),
      withBody: fc.boolean(),
      encoding: wellBehaved
        ? fc.constantFrom(undefined, undefined, undefined, 'gzip', 'deflate', 'br')
        : fc.constantFrom(
            undefined,
            undefined,
            undefined,
            'gzip',
            'deflate',
            'br',
            'compress',
            'identity',
            'gzip-mislabelled',
          ),
    })
    .map(({ method, target, headers, withBody, encoding }) => ({
      method,
      path: target.path,
      headers,
      encoding,
      body: withBody || ['POST', 'PUT', 'PATCH'].includes(method) ? target.body : undefined,
    }))
    .map(({ method, path, headers, body, encoding }): RawRequest => {
      if (body === undefined) return { method, path, headers };
      if (encoding === undefined) return { method, path, headers, body };
      const coded =
        encoding === 'gzip'
          ? gzipSync(body)
          : encoding === 'deflate'
            ? deflateSync(body)
            : encoding === 'br'
              ? brotliCompressSync(body)
              : body;
      return {
        method,
        path,
        headers: { ...headers, 'Content-Encoding': encoding === 'gzip-mislabelled' ? 'gzip' : encoding },
        body: coded,
      };
    });
}

const IDENTIFIER = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 40 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e3',
      '99999999999999999999999',
      'abc',
      '%00',
      '..',
      '%2e%2e',
      '%2F',
      'null',
      'undefined',
      '__proto__',
      'constructor',
      '(list)',
      '%F0%9F%8D%8E',
      'a'.repeat(300),
    ),
  },
);

/** What a request line may carry as it is: visible ASCII; anything else is percent-encoded, as a client must. */
const escaped = (text: string) => text.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));

const QUERY_VALUE = fc.oneof(
  fc
    .constantFrom(
      '1',
      '0',
      '-1',
      '20',
      '500',
      '501',
      '1e9',
      'abc',
      '',
      '%00',
      "' OR 1=1 --",
      'orders',
      'trades',
      'users',
      'accounts',
      'apple*',
      '"quoted"',
      'ŁÓDŹ',
      '%ZZ',
    )
    .map(escaped),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const QUERY_KEY = fc.constantFrom(
  'limit',
  'offset',
  'q',
  'category',
  'item',
  'quantity',
  'trade_name',
  'user_name',
  'access_token',
  'sort',
  'x',
  '__proto__',
  'limit[]',
);

const text = fc.string({ minLength: 1, maxLength: 16 });
/** The example API's paths (identifiers of rows that exist) with the body each one takes. */
const SERVED: ReadonlyArray<readonly [string, fc.Arbitrary<unknown>]> = [
  ['/v1/orders', fc.record({ item: text, quantity: fc.integer({ min: 1, max: 99 }) })],
  ['/v2/orders/{id}', fc.record({ item: text, quantity: fc.integer({ min: 1, max: 99 }) }, { requiredKeys: [] })],
  [
    '/v1/trades',
    fc.record({ trade_name: text, order: fc.integer({ min: 1, max: 6 }) }, { requiredKeys: ['trade_name'] }),
  ],
  ['/v2/trades/{id}', fc.record({ trade_name: text }, { requiredKeys: [] })],
  ['/v1/users', fc.record({ user_name: text })],
  ['/v2/users/{id}', fc.record({ user_name: text })],
  ['/v1/users/{id}/profiles', fc.record({ full_name: text, state: text, title: text })],
  [
    '/v1/accounts',
    fc.record(
      { user_name: text, e_mail: fc.emailAddress(), state: text, title: text },
      { requiredKeys: ['user_name'] },
    ),
  ],
  [
    '/v2/accounts/{id}',
    fc.record({ user_name: text, profile: fc.record({ state: text, title: text }) }, { requiredKeys: [] }),
  ],
  ['/services/v1/search?q=fuzz&category=orders', fc.constant({})],
  ['/services/v2/queued/jobs', fc.constant({ type: 'reindex' })],
  ['/services/v1/queued/jobs/{id}', fc.constant({})],
  ['/settings/v1/gui/lang', fc.record({ lang: fc.constantFrom('fr-FR', 'en', 'de-CH') })],
];

function wellBehavedTarget(): fc.Arbitrary<{ path: string; body: Buffer }> {
  return fc.oneof(
    ...SERVED.map(([template, body]) =>
      fc
        .record({
          id: fc.integer({ min: 1, max: 6 }),
          limit: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
          body,
        })
        .map(({ id, limit, body: value }) => ({
          path: `${template.replace('{id}', String(id))}${limit === undefined || template.includes('{id}') || template.includes('?') ? '' : `?limit=${limit}`}`,
          body: Buffer.from(JSON.stringify(value)),
        })),
    ),
  );
}

function pathArbitrary(_wellBehaved: false): fc.Arbitrary<string> {
  const template = fc.constantFrom(
    '/v1/orders',
    '/v2/orders',
    '/v1/orders/(list)',
    '/v1/orders/{id}',
    '/v2/trades',
    '/v1/trades/{id}',
    '/v1/users',
    '/v1/users/{id}',
    '/v2/users/{id}/profiles',
    '/v1/accounts',
    '/v2/accounts/{id}',
    '/v1/profiles',
    '/services/v1/search',
    '/services/v2/queued/jobs',
    '/services/v1/queued/jobs/{id}',
    '/settings/v1/gui/lang',
    '/settings/v2/gui/lang',
    '/v3/orders',
    '/v1/Orders',
    '/V1/orders',
    '/v1/orders/{id}/trades/{id}/deep',
    '/v1/order_items',
    '/services/v1/openapi',
    '/',
    '//v1//orders',
    '/v1/orders/',
    '/v1/orders/{id}?',
  );
  const query = fc
    .array(fc.tuple(QUERY_KEY, QUERY_VALUE), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`));
  return fc
    .tuple(template, IDENTIFIER, IDENTIFIER, query)
    .map(
      ([path, first, second, search]) =>
        `${path.replace('{id}', first).replace('{id}', second)}${path.includes('?') ? '' : search}`,
    );
}

function wellBehavedHeaders(token: string): fc.Arbitrary<Record<string, string | string[]>> {
  const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
  return fc
    .record({
      'User-Agent': fc.constant('fuzz/1.0'),
      Authorization: fc.constant(`Bearer ${token}`),
      Accept: optional(fc.constantFrom('application/json', '*/*')),
      'Accept-Encoding': optional(fc.constantFrom('gzip', 'identity', 'gzip, deflate, br')),
      'Content-Type': fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/merge-patch+json',
      ),
      'X-Result-Fields': optional(fc.constantFrom('item', 'item,quantity', 'order_id, created_at')),
      'X-Expansion-Fields': optional(fc.constantFrom('true', 'false')),
      'X-Pretty-Print': optional(fc.constantFrom('true', 'false')),
    })
    .map(
      (headers) =>
        Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<
          string,
          string
        >,
    );
}

function headersArbitrary(token: string): fc.Arbitrary<Record<string, string | string[]>> {
  const optional = <T>(arbitrary: fc.Arbitrary<T>, freq = 2) => fc.option(arbitrary, { nil: undefined, freq });
  return fc
    .record({
      'User-Agent': fc.option(fc.constantFrom('fuzz/1.0', 'x', 'curl/8', ' '), { nil: undefined, freq: 8 }),
      Authorization: fc.option(
        fc.oneof(
          { weight: 8, arbitrary: fc.constant(`Bearer ${token}`) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              'Bearer',
              'Bearer ',
              'Bearer garbage',
              'Basic dXNlcjpwYXNz',
              `bearer ${token}`,
              'Bearer a.b.c',
              `Bearer ${token} extra`,
            ),
          },
          { weight: 1, arbitrary: fc.constant([`Bearer ${token}`, 'Bearer other']) },
        ),
        { nil: undefined, freq: 8 },
      ),
      Accept: optional(
        fc.constantFrom(
          'application/json',
          '*/*',
          'text/html',
          'application/xml',
          'application/*',
          'application/json;q=0',
          'text/*, application/json;q=0.1',
          '',
        ),
      ),
      'Accept-Encoding': optional(
        fc.constantFrom(
          'gzip',
          'identity',
          'identity;q=0',
          '*;q=0',
          'br',
          'gzip;q=0',
          'deflate, gzip',
          'gzip, identity;q=0',
          'x-unknown',
        ),
      ),
      'Content-Type': optional(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=UTF-8',
          'application/json; charset=latin1',
          'application/json; charset=nope',
          'text/plain',
          'application/merge-patch+json',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          'application/json; foo',
        ),
        1,
      ),
      'X-Result-Fields': optional(
        fc.constantFrom('item', 'item,quantity', 'order_id, created_at', 'nope', '', ',,', 'ITEM', 'uri'),
      ),
      'X-Expansion-Fields': optional(fc.constantFrom('true', 'false', 'yes', '', 'TRUE')),
      'X-Pretty-Print': optional(fc.constantFrom('true', 'false', 'maybe', '0')),
      'If-None-Match': optional(fc.constantFrom('*', '"abc"', 'W/"abc"', 'garbage', '"a", "b"')),
      'If-Match': optional(fc.constantFrom('*', '"abc"', 'W/"abc"', 'garbage')),
      Prefer: optional(fc.constantFrom('return=minimal', 'return=representation', 'respond-async', 'nonsense')),
    })
    .map(
      (headers) =>
        Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<
          string,
          string | string[]
        >,
    );
}

/** Member names that have bitten JavaScript servers before. */
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'uri',
  'identity',
  'created_at',
  'order_id',
  'links',
  'errors',
  'message',
];

/** Members of the example's resources, settings and jobs, with plausible and wrong values. */
function resourceLike() {
  return fc.record(
    {
      item: fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null), fc.constant('')),
      quantity: fc.oneof(
        fc.integer({ min: -2, max: 1000 }),
        fc.double(),
        fc.string({ maxLength: 4 }),
        fc.constant(null),
      ),
      trade_name: fc.string({ maxLength: 10 }),
      order: fc.oneof(
        fc.integer({ min: 0, max: 50 }),
        fc.constantFrom('http://evil.example/v1/orders/1', '/v1/orders/1', 'http://127.0.0.1/v1/orders/1', '1', null),
      ),
      user_name: fc.string({ maxLength: 10 }),
      lang: fc.constantFrom('fr-FR', 'en', 'xx-!!', ''),
      type: fc.constantFrom('reindex', 'nope', ''),
    },
    { requiredKeys: [] },
  );
}

function bodyArbitrary(): fc.Arbitrary<Buffer> {
  const resourceLikeValue = resourceLike();
  const withNastyKeys = fc
    .tuple(resourceLikeValue, fc.subarray(NASTY_KEYS), fc.jsonValue({ maxDepth: 2 }))
    .map(([base, keys, value]) => {
      const text = JSON.stringify(base);
      const extra = keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',');
      return extra === '' ? text : `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${extra}}`;
    });
  return fc
    .oneof(
      { weight: 4, arbitrary: resourceLikeValue.map((value) => JSON.stringify(value)) },
      { weight: 2, arbitrary: withNastyKeys },
      { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 1, max: 3000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          '{',
          '{"item": "a",}',
          'null',
          '"text"',
          '[]',
          '{}',
          '\u0000',
          '{"a":1}{"b":2}',
          '\ufeff{"item":"bom","quantity":1}',
        ),
      },
    )
    .map((text) => Buffer.from(text))
    .chain((bytes) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(bytes) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((random) => Buffer.from(random)) },
      ),
    );
}
