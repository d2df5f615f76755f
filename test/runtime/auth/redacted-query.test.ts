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
  ])('%s', (_name, given, want) => {
    expect(redactedQuery(withQuery(given))).toBe(want);
  });
});
