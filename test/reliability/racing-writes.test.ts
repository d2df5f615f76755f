import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIfMatch, raceUniqueCreate } from '../support/racing-writes.ts';
import { startApi, type TestApi } from '../support/start-api.ts';

/**
 * Racing writes: rounds of RACERS clients writing at once. `npm test` runs RACE_ROUNDS
 * (default 5) of each race; `npm run test:reliability` runs 100. Every round must have exactly one
 * winner; the figures of the run are printed at the end.
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 5);
const RACERS = 8;

describe('racing writes: one winner, every loser told so, nothing lost', () => {
  let api: TestApi;
  const statuses = new Map<number, number>();
  const count = (responses: readonly { status: number }[]) => {
    for (const { status } of responses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  };
  beforeAll(async () => {
    api = await startApi({ env: { RATE_LIMIT_RESOURCE: '1000000/1' } });
  });
  afterAll(async () => {
    const sent = [...statuses.values()].reduce((sum, times) => sum + times, 0);
    console.log(
      `racing writes: ${ROUNDS} rounds of each race, ${RACERS} racers; ${sent} racing requests, statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, times]) => `${status}×${times}`)
        .join(' ')}`,
    );
    await api.close();
  });

  it(`${RACERS} PATCHes with the same If-Match, ${ROUNDS} rounds: one 200 each round, the rest 412, the winner's change stored`, async () => {
    const created = await api.post('/v1/orders', { item: 'raced', quantity: 1 }).expect(201);
    const path = `/v1/orders/${created.body.identity}`;
    for (let round = 0; round < ROUNDS; round += 1) {
      const bodies = Array.from({ length: RACERS }, (_, racer) => ({
        item: `round ${round} racer ${racer}`,
        quantity: racer + 1,
      }));
      const { responses, winner } = await raceIfMatch(api, path, bodies);
      count(responses);
      expect(bodies.map((body) => body.item)).toContain(winner.body.item);
    }
  });

  it(`${RACERS} POSTs of the same unique user_name, ${ROUNDS} rounds: one 201 each round, the rest 409 duplicate_value`, async () => {
    const run = Date.now().toString(36);
    for (let round = 0; round < ROUNDS; round += 1) {
      const { responses } = await raceUniqueCreate(
        api,
        '/v1/users',
        { user_name: `racer-${run}-${round}` },
        'user_name',
        RACERS,
      );
      count(responses);
    }
    expect(statuses.get(201)).toBe(ROUNDS);
  });
});
