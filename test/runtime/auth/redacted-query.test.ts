import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { redactedQuery } from '../../../runtime/auth/index.ts';

const withQuery = (querystring: string) => ({ querystring }) as Context;

describe('redactedQuery()', () => {
  it.each([
    ['no query string', '', ''],
    ['nothing to redact', 'q=apple&category=orders', 'q=apple&category=orders'],
    ['access_token', 'q=apple&access_token=s3cret', 'q=apple&access_token=[redacted]'],
    ['a name in another case, with a hyphen', 'Access-Token=s3cret', 'Access-Token=[redacted]'],
    ['a percent-encoded name', 'access%5Ftoken=s3cret', 'access%5Ftoken=[redacted]'],
    ['a name without a value', 'token', 'token=[redacted]'],
    ['several', 'api_key=a&x=1&jwt=b', 'api_key=[redacted]&x=1&jwt=[redacted]'],
    ['a malformed percent-encoding', 'q=%E0%A4%A&token=s', 'q=%E0%A4%A&token=[redacted]'],
    ['a bracketed name', 'access_token[]=s3cret&q=1', 'access_token[]=[redacted]&q=1'],
    ['an indexed name, percent-encoded brackets', 'access_token%5B0%5D=s3cret', 'access_token%5B0%5D=[redacted]'],
    ['a nested credential', 'user[password]=hunter2&user[name]=ann', 'user[password]=[redacted]&user[name]=ann'],
    [
      'client_secret, password, secret',
      'client_secret=a&password=b&secret=c',
      'client_secret=[redacted]&password=[redacted]&secret=[redacted]',
    ],
    ['x-api-key in any case', 'X-Api-Key=a&X-API-KEY=b', 'X-Api-Key=[redacted]&X-API-KEY=[redacted]'],
    [
      'names that run words together',
      'accessToken=a&clientSecret=b&apikey=c',
      'accessToken=[redacted]&clientSecret=[redacted]&apikey=[redacted]',
    ],
    ['a name encoded twice', 'pass%2577ord=a', 'pass%2577ord=[redacted]'],
    ['harmless names that contain a credential word', 'monkey=1&author=ann&q=key', 'monkey=1&author=ann&q=key'],
    [
      'a credential word as one word of a longer name',
      'x_key=a&x_auth=b&x_authorization=c&user_pass=d&url_sig=e&my_otp=f&card_pin=g&pin_code_hint=h',
      'x_key=[redacted]&x_auth=[redacted]&x_authorization=[redacted]&user_pass=[redacted]&url_sig=[redacted]&my_otp=[redacted]&card_pin=[redacted]&pin_code_hint=[redacted]',
    ],
    [
      'key as one word of a name, and a name without one',
      'sort_key_order=1&page_size=2',
      'sort_key_order=[redacted]&page_size=2',
    ],
  ])('%s', (_name, given, want) => {
    expect(redactedQuery(withQuery(given))).toBe(want);
  });

  it('its own credential names when given, beside the credential-like words', () => {
    const names = new Set(['code']);
    expect(redactedQuery(withQuery('code=abc&state=xyz&password=p'), names)).toBe(
      'code=[redacted]&state=xyz&password=[redacted]',
    );
    expect(redactedQuery(withQuery(''), names)).toBe('');
  });
});
