import { expect } from 'vitest';
import type request from 'supertest';
import { expectErrorBody } from './error-body.ts';
import { headerOf } from './header-of.ts';
import type { TestApi } from './start-api.ts';

/** What a race left: every response, in the order the racers were started, and the one that won. */
export interface RaceOutcome {
  readonly responses: readonly request.Response[];
  readonly winner: request.Response;
}

/**
 * Writes `bodies` to `path` at once, every one with If-Match naming the version read just before,
 * and checks what the conventions promise: exactly one wins (200), every other gets 412
 * precondition_failed with the error body, and the resource is the winner's.
 */
export async function raceIfMatch(
  api: TestApi,
  path: string,
  bodies: readonly object[],
  method: 'patch' | 'put' = 'patch',
): Promise<RaceOutcome> {
  const etag = headerOf(await api.get(path).expect(200), 'etag');
  const responses = await Promise.all(bodies.map((body) => api[method](path, body).set('If-Match', etag)));
  expect(responses.map((response) => response.status).sort()).toEqual([
    200,
    ...Array.from({ length: bodies.length - 1 }, () => 412),
  ]);
  for (const loser of responses.filter((response) => response.status === 412))
    expectErrorBody(loser, 'precondition_failed');
  const winner = responses.find((response) => response.status === 200)!;
  const stored = await api.get(path).expect(200);
  expect(stored.body).toEqual(winner.body);
  expect(headerOf(stored, 'etag')).not.toBe(etag);
  return { responses, winner };
}

/**
 * POSTs `body` to `collection` from `racers` clients at once, where `field` must be unique, and checks
 * what the conventions promise: exactly one is created (201), every other gets 409 duplicate_value
 * naming the field, and one resource holds the value.
 */
export async function raceUniqueCreate(
  api: TestApi,
  collection: string,
  body: Record<string, unknown>,
  field: string,
  racers: number,
): Promise<RaceOutcome> {
  const responses = await Promise.all(Array.from({ length: racers }, () => api.post(collection, body)));
  expect(responses.map((response) => response.status).sort()).toEqual([
    201,
    ...Array.from({ length: racers - 1 }, () => 409),
  ]);
  for (const loser of responses.filter((response) => response.status === 409))
    expectErrorBody(loser, 'duplicate_value', field);
  const value = String(body[field]);
  expect(
    headerOf(await api.get(`${collection}?${field}=${encodeURIComponent(value)}`).expect(200), 'x-total-count'),
  ).toBe('1');
  return { responses, winner: responses.find((response) => response.status === 201)! };
}
