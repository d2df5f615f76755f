import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { onEveryCpu } from '../lib/cpu-affinity.ts';
import { repoPath, SOURCE_CONDITION } from '../lib/paths.ts';

const run = promisify(execFile);

/** This repository's CLI (`convapi ARGS`) from its sources, as a command and its arguments, on every CPU. */
export const convapiCommand = (args: readonly string[]) =>
  onEveryCpu(process.execPath, [SOURCE_CONDITION, repoPath('codegen', 'cli', 'convapi.ts'), ...args]);

/**
 * Runs this repository's generator on another project root (`generate --root DIR [--check]`) in a
 * fresh process, as `npm run generate` would, and returns its wall time in ms. Throws with the
 * generator's output when it exits non-zero.
 */
export async function runGenerator(root: string, check = false): Promise<number> {
  const started = performance.now();
  try {
    await run(...convapiCommand(['generate', '--root', root, ...(check ? ['--check'] : [])]), {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`generate${check ? ' --check' : ''} --root ${root} failed:\n${`${stdout}${stderr}`.slice(-2000)}`);
  }
  return performance.now() - started;
}

/**
 * Runs this repository's linter (type check included) on a project root (`lint --root DIR`) in a
 * fresh process, as `npm run lint:definitions` would, and returns its wall time in ms. Throws with its
 * output unless it exits 0: the synthetic projects lint clean.
 */
export async function runLint(root: string): Promise<number> {
  const started = performance.now();
  try {
    await run(...convapiCommand(['lint', '--root', root]), {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`lint --root ${root} failed:\n${`${stdout}${stderr}`.slice(-2000)}`);
  }
  return performance.now() - started;
}
