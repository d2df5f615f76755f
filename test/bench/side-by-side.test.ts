import { describe, expect, it } from 'vitest';
import { cpuSplitOf, parseCpuList } from '../../bench/lib/cpu-affinity.ts';
import { formatPairedRatio, pairedRatio, type SharedRounds } from '../../bench/lib/shared-rounds.ts';
import type { Measurement } from '../../bench/lib/load.ts';

const measured = (requestsPerSecond: number, unexpected = 0): Measurement => ({ requestsPerSecond, p50Ms: 1, p99Ms: 2, unexpected, statuses: { 200: 1 } });

describe('CPU placement', () => {
  it('reads taskset CPU lists, ranges included', () => {
    expect(parseCpuList(' 0-2,5\n')).toEqual([0, 1, 2, 5]);
    expect(parseCpuList('3')).toEqual([3]);
  });

  it('gives the servers the last CPU and the load generator the rest; nothing to split on one CPU', () => {
    expect(cpuSplitOf([0, 1])).toEqual({ servers: '1', load: '0' });
    expect(cpuSplitOf([2, 3, 6])).toEqual({ servers: '6', load: '2,3' });
    expect(cpuSplitOf([0])).toBeUndefined();
  });
});

describe('ratios of servers loaded side by side', () => {
  // The machine halves its speed in round 2 and doubles it in round 3: the ratio within a round holds.
  const shared: SharedRounds = {
    labels: ['b', 'c'],
    rounds: [
      [measured(1000), measured(900)],
      [measured(500), measured(460)],
      [measured(2000), measured(1780)],
    ],
  };

  it('takes the median of the per-round ratios, with their range, however the rounds themselves moved', () => {
    const value = pairedRatio(shared, 'c', 'b');
    expect(value.median).toBeCloseTo(0.9, 5);
    expect(value.min).toBeCloseTo(0.89, 5);
    expect(value.max).toBeCloseTo(0.92, 5);
    expect(value.valid).toBe(true);
    expect(formatPairedRatio(value)).toBe('0.90 (0.89–0.92)');
  });

  it('is not valid when a round had unexpected responses, and NaN for a label not measured', () => {
    const disturbed: SharedRounds = { labels: ['b', 'c'], rounds: [[measured(1000), measured(900, 3)]] };
    expect(pairedRatio(disturbed, 'c', 'b').valid).toBe(false);
    expect(pairedRatio(shared, 'h', 'b').median).toBeNaN();
  });
});
