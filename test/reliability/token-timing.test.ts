import { expect, it } from 'vitest';
import { SqliteTokenStore } from '../../runtime/auth/index.ts';
import { IN_MEMORY, openDatabase } from '../../runtime/storage/index.ts';
import { describeInFullRun } from './support/full-run.ts';

const RUNS = Number(process.env.TOKEN_TIMING_RUNS ?? 20_000);

const median = (values: number[]) => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// A statistical check, beside the structural one (test/runtime/auth/unknown-token.test.ts): medians of
// interleaved runs, in the full run only, where the machine is not shared with the whole suite.
describeInFullRun('verification time', () => {
  it('an unknown token and a revoked one are refused in the same time (medians within 1 µs)', () => {
    const store = new SqliteTokenStore(openDatabase(IN_MEMORY));
    // A store with some tokens in it, as a server has.
    for (let index = 0; index < 2_000; index += 1) store.issue({ client: `client-${index % 50}` });
    const revoked = store.issue({ client: 'web', user: 'ann', scopes: ['notes:read'] });
    store.revoke(revoked);
    // As a prober sends them: each one many times, as long as a real token (43 characters).
    const unknown = 'Zm9yZ2VkLXRva2VuLW5vYm9keS1ldmVyLWlzc3VlZC1pdA'.slice(0, 43);
    const timeOf = (token: string) => {
      const started = process.hrtime.bigint();
      store.verify(token);
      return Number(process.hrtime.bigint() - started);
    };
    for (let warm = 0; warm < 2_000; warm += 1) timeOf(warm % 2 === 0 ? revoked : unknown);
    const revokedNs: number[] = [];
    const unknownNs: number[] = [];
    // Interleaved, so a pause of the machine falls on both alike.
    for (let run = 0; run < RUNS; run += 1) {
      revokedNs.push(timeOf(revoked));
      unknownNs.push(timeOf(unknown));
    }
    const difference = median(revokedNs) - median(unknownNs);
    console.log(
      `token timing: ${RUNS} each, median revoked ${(median(revokedNs) / 1000).toFixed(2)} µs, unknown ${(median(unknownNs) / 1000).toFixed(2)} µs, difference ${(difference / 1000).toFixed(2)} µs`,
    );
    expect(Math.abs(difference)).toBeLessThan(1_000);
  });
});
