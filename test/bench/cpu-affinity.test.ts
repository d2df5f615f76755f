import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCpuList as cpus } from '../../bench/lib/cpu-affinity.ts';

const AFFINITY = fileURLToPath(new URL('../../bench/lib/cpu-affinity.ts', import.meta.url));

/** Whether taskset can pin here: Linux with the tool and two CPUs or more. */
function canPin(): boolean {
  if (process.platform !== 'linux' || availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-cp', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// In a process of its own: pinBench() pins the process that calls it.
const SCRIPT = `
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { onEveryCpu, pinBench } from ${JSON.stringify(AFFINITY)};
const allowed = (status) => /^Cpus_allowed_list:\\s*(.*)$/m.exec(status)[1];
const before = allowed(readFileSync('/proc/self/status', 'utf8'));
const split = pinBench();
const pinned = allowed(readFileSync('/proc/self/status', 'utf8'));
const child = allowed(execFileSync(...onEveryCpu('cat', ['/proc/self/status']), { encoding: 'utf8' }));
console.log(JSON.stringify({ before, split, pinned, child }));
`;

describe.skipIf(!canPin())('the bench pinned to the load generator CPUs', () => {
  it('runs the generator and its type check on every CPU, as a user runs them, not on its own share', () => {
    const { before, split, pinned, child } = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { encoding: 'utf8' }),
    ) as { before: string; split: { load: string }; pinned: string; child: string };
    expect(cpus(pinned)).toEqual(cpus(split.load));
    expect(cpus(pinned).length).toBeLessThan(cpus(before).length);
    expect(cpus(child)).toEqual(cpus(before));
  });
});
