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
  ])('%s', (_name, given, want) => {
    expect(redactedQuery(withQuery(given))).toBe(want);
  });
});
