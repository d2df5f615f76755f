import { expect } from 'vitest';

/** A 429 as the conventions and the contract want it: rate_limit_exceeded, X-RateLimit-* with Remaining 0, Retry-After, JSON. */
export function expectRateLimited(
  response: { body: { errors: { code: string }[] }; headers: Record<string, string | undefined> },
  limit: number,
): void {
  expect(response.body.errors[0]!.code).toBe('rate_limit_exceeded');
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.headers['content-type']).toBe('application/json;charset=UTF-8');
}
