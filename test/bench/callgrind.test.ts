import { describe, expect, it } from 'vitest';
import { instructionsOfDump, nodeArgumentsOf } from '../../bench/lib/callgrind.ts';

describe('callgrind helpers', () => {
  it("reads a dump's count from its summary line", () => {
    const dump = ['# callgrind format', 'version: 1', 'events: Ir', 'summary: 455160156', '', 'totals: 455160156'].join(
      '\n',
    );
    expect(instructionsOfDump(dump)).toBe(455_160_156);
  });

  it('refuses a dump without a count', () => {
    expect(() => instructionsOfDump('events: Ir\n')).toThrow(/summary/);
  });

  it('finds the node arguments of a start script that ends by running node', () => {
    expect(
      nodeArgumentsOf(
        'exec sh node_modules/@convapi/runtime/bin/with-allocator.sh node --conditions=source --max-semi-space-size=8 --import @convapi/runtime/node-check generated/main.ts',
      ),
    ).toEqual([
      '--conditions=source',
      '--max-semi-space-size=8',
      '--import',
      '@convapi/runtime/node-check',
      'generated/main.ts',
    ]);
  });

  it('refuses a start script that does not run node', () => {
    expect(() => nodeArgumentsOf('bun run server.ts')).toThrow(/does not run node/);
  });
});
