import { spawn } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath } from '../lib/paths.ts';
import { convapiCommand } from './generate-project.ts';
import { tempDir } from '../lib/temp.ts';

const DONE = /^(?:regenerated|not regenerated.*) in \d+\.\d\d s; watching definitions\//m;
const TIMEOUT_MS = 120_000;

/**
 * `generate --watch` on a copy of the example API: the wall time from writing one definition file
 * (definitions/orders.ts, a description added or removed) to the watcher reporting it regenerated,
 * once per change, `changes` times. The watcher's own first generation is not measured (it leaves
 * the incremental state of the type check that the next runs use, as it would for a user).
 */
export async function watchRegenerationTimes(changes: number): Promise<number[]> {
  const root = tempDir('watch');
  for (const entry of ['definitions', 'generated', 'package.json', 'tsconfig.json', 'published-versions.json'])
    cpSync(repoPath(entry), join(root, entry), { recursive: true });
  symlinkSync(repoPath('node_modules'), join(root, 'node_modules'), 'dir');
  const child = spawn(...convapiCommand(['generate', '--watch']), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let waiter: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (DONE.test(output)) waiter?.();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  /** The output of the watcher's next run, once it reports it is done. */
  const nextRun = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`generate --watch did not report within ${TIMEOUT_MS / 1000} s:\n${output.slice(-2000)}`)),
        TIMEOUT_MS,
      );
      waiter = () => {
        clearTimeout(timer);
        waiter = undefined;
        const run = output;
        output = '';
        resolve(run);
      };
      if (DONE.test(output)) waiter();
    });
  try {
    await nextRun();
    const file = join(root, 'definitions', 'orders.ts');
    const original = readFileSync(file, 'utf8');
    const times: number[] = [];
    for (let change = 0; change < changes; change += 1) {
      const text =
        change % 2 === 0
          ? original.replace('item: field.string({', "item: field.string({ description: 'What is ordered.',")
          : original;
      const started = performance.now();
      const done = nextRun();
      writeFileSync(file, text);
      const run = await done;
      const elapsed = performance.now() - started;
      if (!/^regenerated in/m.test(run) || !run.includes('written generated/models/orders.ts'))
        throw new Error(`generate --watch did not regenerate orders:\n${run}`);
      times.push(elapsed);
    }
    return times;
  } finally {
    child.kill('SIGTERM');
  }
}
