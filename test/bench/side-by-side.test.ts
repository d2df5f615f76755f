import { describe, expect, it } from 'vitest';
import { cpuSplitOf, parseCpuList } from '../../bench/lib/cpu-affinity.ts';
import {
  cpuPerRequestUs,
  formatPairedRatio,
  medianCpuPerRequestUs,
  pairedRatio,
  type SharedMeasurement,
  type SharedRounds,
} from '../../bench/lib/shared-rounds.ts';
import { processCpuNs } from '../../bench/lib/cpu-time.ts';
import { formatRatioAgainst } from '../../bench/lib/format.ts';

/** A 2 s round: `requestsPerSecond` responses a second, and the server's CPU time when known (µs per response). */
const measured = (requestsPerSecond: number, unexpected = 0, cpuUsPerRequest?: number): SharedMeasurement => ({
  requestsPerSecond,
  responses: requestsPerSecond * 2,
  p50Ms: 1,
  p99Ms: 2,
  unexpected,
  statuses: { 200: 1 },
  serverCpuNs: cpuUsPerRequest === undefined ? undefined : cpuUsPerRequest * requestsPerSecond * 2 * 1000,
});

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

  it("without the servers' CPU time, takes the median of the per-round requests/s ratios, with their range, and marks it", () => {
    const value = pairedRatio(shared, 'c', 'b');
    expect(value.basis).toBe('throughput');
    expect(value.median).toBeCloseTo(0.9, 5);
    expect(value.min).toBeCloseTo(0.89, 5);
    expect(value.max).toBeCloseTo(0.92, 5);
    expect(value.valid).toBe(true);
    expect(formatPairedRatio(value)).toBe('0.90 (0.89–0.92)*');
  });

  it("with the servers' CPU time, compares requests per CPU-second, whatever share of the CPU each server got", () => {
    // c spends 25 µs per request, b 20: c serves 0.8 as many per CPU-second. In round 2 the load
    // generator favoured c (more requests/s than b), in round 3 the machine slowed down: neither moves the ratio.
    const withCpu: SharedRounds = {
      labels: ['b', 'c'],
      rounds: [
        [measured(1000, 0, 20), measured(800, 0, 25)],
        [measured(800, 0, 20), measured(1000, 0, 25)],
        [measured(400, 0, 40), measured(320, 0, 50)],
      ],
    };
    const value = pairedRatio(withCpu, 'c', 'b');
    expect(value.basis).toBe('cpu');
    expect(value.median).toBeCloseTo(0.8, 5);
    expect(formatPairedRatio(value)).toBe('0.80 (0.80–0.80)');
    expect(cpuPerRequestUs(withCpu.rounds[0]![1]!)).toBeCloseTo(25, 5);
    expect(medianCpuPerRequestUs(withCpu, 'c')).toBeCloseTo(25, 5);
    expect(medianCpuPerRequestUs(withCpu, 'h')).toBeNaN();
  });

  it('compares the mean CPU time per request of each side when a side is several processes of one server', () => {
    // Two processes of b (20 and 22 µs: layouts differ) against two of c (25 and 30 µs): 21 / 27.5.
    const pooled: SharedRounds = {
      labels: ['b', "b'", 'c', "c'"],
      rounds: [[measured(900, 0, 20), measured(900, 0, 22), measured(800, 0, 25), measured(700, 0, 30)]],
    };
    expect(pairedRatio(pooled, ['c', "c'"], ['b', "b'"]).median).toBeCloseTo(21 / 27.5, 5);
    expect(pairedRatio(pooled, 'c', ['b', "b'"]).median).toBeCloseTo(21 / 25, 5);
    expect(pairedRatio(pooled, ['c', 'h'], 'b').median).toBeNaN();
    const disturbed: SharedRounds = {
      ...pooled,
      rounds: [[measured(900, 0, 20), measured(900, 2, 22), measured(800, 0, 25), measured(700, 0, 30)]],
    };
    expect(pairedRatio(disturbed, ['c', "c'"], ['b', "b'"]).valid).toBe(false);
  });

  it('falls back to requests/s for every round when one round lacks a CPU reading', () => {
    const partly: SharedRounds = {
      labels: ['b', 'c'],
      rounds: [
        [measured(1000, 0, 20), measured(900, 0, 25)],
        [measured(1000), measured(900)],
      ],
    };
    const value = pairedRatio(partly, 'c', 'b');
    expect(value.basis).toBe('throughput');
    expect(value.median).toBeCloseTo(0.9, 5);
  });

  it('is not valid when a round had unexpected responses, and NaN for a label not measured', () => {
    const disturbed: SharedRounds = { labels: ['b', 'c'], rounds: [[measured(1000), measured(900, 3)]] };
    expect(pairedRatio(disturbed, 'c', 'b').valid).toBe(false);
    expect(pairedRatio(shared, 'h', 'b').median).toBeNaN();
  });
});

describe("a process's CPU time", () => {
  it.runIf(process.platform === 'linux')(
    'grows with the work the process does, and is undefined for a process that is gone',
    () => {
      const before = processCpuNs(process.pid)!;
      let sum = 0;
      // A fixed amount of work, well over the 10 ms tick of the coarser reading.
      for (let step = 0; step < 3e7; step += 1) sum += Math.sqrt(step);
      const after = processCpuNs(process.pid)!;
      expect(sum).toBeGreaterThan(0);
      expect(after).toBeGreaterThan(before);
      expect(processCpuNs(2 ** 22 + 1)).toBeUndefined();
    },
  );
});

describe('a ratio shown against its target', () => {
  it('keeps two decimals, and takes a third where two would round it onto the target', () => {
    expect(formatRatioAgainst(0.874, 0.85)).toBe('0.87');
    expect(formatRatioAgainst(0.846, 0.85)).toBe('0.846');
    expect(formatRatioAgainst(0.852, 0.85)).toBe('0.852');
    expect(formatRatioAgainst(0.85, 0.85)).toBe('0.85');
    expect(formatRatioAgainst(Number.NaN, 0.85)).toBe('-');
  });
});
