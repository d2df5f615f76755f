import { describe, expect, it } from 'vitest';
import { memoryResult } from '../../bench/sections/memory.ts';
import { parseOptions } from '../../bench/lib/options.ts';
import type { MemoryProfile } from '../../bench/lib/memory-load.ts';

const answered = { responses: 1000, statuses: { 200: 1000 }, failures: 0, unexpected: 0 };
const profile = (idleMiB: number, peakMiB: number, changes: Partial<MemoryProfile> = {}): MemoryProfile => ({
  idleKib: idleMiB * 1024,
  peakKib: peakMiB * 1024,
  afterKib: idleMiB * 1024,
  alive: true,
  outcome: answered,
  ...changes,
});

describe("the memory section's targets", () => {
  const options = parseOptions(['--only', 'memory']);

  it("compares c's idle and peak resident set with Fastify's", () => {
    const { tables, targets } = memoryResult(
      [
        ['c', profile(110, 130)],
        ['f', profile(100, 100)],
      ],
      options,
      10,
    );
    expect(targets.map((target) => [target.name, target.figure, target.verdict])).toEqual([
      ['memory: c/f idle RSS', '1.10', 'pass'],
      ['memory: c/f peak RSS', '1.30', 'FAIL'],
    ]);
    expect(tables[0]!.rows.map((row) => row.slice(0, 4))).toEqual([
      ['c generated', '110.0', '130.0', '110.0'],
      ['f Fastify 5 + node:sqlite', '100.0', '100.0', '100.0'],
    ]);
  });

  it('judges nothing when a server answered a 5xx or exited, and says why', () => {
    const failed = { responses: 1000, statuses: { 200: 990, 500: 10 }, failures: 0, unexpected: 10 };
    const { tables, targets } = memoryResult(
      [
        ['c', profile(100, 100, { outcome: failed })],
        ['f', profile(100, 100, { alive: false })],
      ],
      options,
      10,
    );
    expect(targets.map((target) => target.verdict)).toEqual(['n/a', 'n/a']);
    const notes = tables[0]!.notes!.join('\n');
    expect(notes).toContain('(!) c generated: 10 unexpected statuses, 10 of them 5xx');
    expect(notes).toContain('(!) f Fastify 5 + node:sqlite: exited during the run');
  });
});
