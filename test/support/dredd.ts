import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Dredd, the contract tester that calls an API from its OpenAPI document alone and checks each
 * answer against it. It is not a dependency of this repository (its own dependencies are old and
 * many): it is installed once with npm into a cache folder outside the repository, and run on the
 * Node that runs the tests (it runs on Node 24 as on 20).
 */
export const DREDD_PACKAGE = 'dredd@14.1.0';

/** Where it is installed: $XDG_CACHE_HOME/convapi/dredd-14.1.0, or ~/.cache/convapi/dredd-14.1.0. */
export const dreddFolder = (): string =>
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'convapi', DREDD_PACKAGE.replace('@', '-'));

const dreddBin = () => join(dreddFolder(), 'node_modules', 'dredd', 'bin', 'dredd');

/**
 * The path of Dredd's command, installing it first when absent (npm, from the registry); undefined
 * when it is absent and npm could not install it (no network).
 */
export function installedDredd(): string | undefined {
  if (existsSync(dreddBin())) return dreddBin();
  const folder = dreddFolder();
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(folder, 'package.json'))) writeFileSync(join(folder, 'package.json'), '{"private": true}\n');
  // Few, short retries: where the registry cannot be reached, the tests go on (skipping) in seconds.
  const retries = ['--fetch-retries=1', '--fetch-retry-mintimeout=2000', '--fetch-retry-maxtimeout=4000'];
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...retries, DREDD_PACKAGE], {
    cwd: folder,
    encoding: 'utf8',
    timeout: 300_000,
  });
  return npm.status === 0 && existsSync(dreddBin()) ? dreddBin() : undefined;
}

export interface DreddRun {
  readonly passing: number;
  readonly failing: number;
  readonly errors: number;
  readonly skipped: number;
  readonly total: number;
  /** Each failed or errored transaction, with what Dredd said of it. */
  readonly problems: string[];
}

/**
 * Runs Dredd on a document against a server: with `--sorted` (creations before reads, deletions
 * last), each of `only` (transaction names) and nothing else, every header given. Resolves with
 * its final counts and what it reported of each failure.
 */
export function runDredd(
  bin: string,
  document: string,
  url: string,
  headers: Readonly<Record<string, string>>,
  only: readonly string[],
): Promise<DreddRun> {
  const args = [bin, document, url, '--sorted', '--color=false', '--loglevel=error'];
  for (const [name, value] of Object.entries(headers)) args.push('--header', `${name}: ${value}`);
  for (const name of only) args.push('--only', name);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const counts = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(output);
      if (counts === null) return reject(new Error(`Dredd printed no summary:\n${output.slice(-4000)}`));
      const [passing, failing, errors, skipped, total] = counts.slice(1).map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      resolve({ passing, failing, errors, skipped, total, problems: problemsIn(output) });
    });
  });
}

/** Of Dredd's report, each failed or errored transaction's line and the lines that say why. */
function problemsIn(output: string): string[] {
  const transaction = /^(pass|fail|skip|error): [A-Z]+ \(\d+\) \S+/;
  const lines = output.split('\n');
  // Dredd names a failure as it happens, then again at the end with its reasons: keep the fuller one.
  const problems = new Map<string, string>();
  lines.forEach((line, index) => {
    const name = transaction.exec(line)?.[0];
    if (name === undefined || !/^(fail|error)/.test(name)) return;
    const reasons = [];
    for (let next = index + 1; next < lines.length; next++) {
      const reason = lines[next]!;
      if (reason === '' || reason.startsWith('request:') || transaction.test(reason)) break;
      reasons.push(reason);
    }
    const told = [name, ...reasons].join('\n  ');
    if (told.length > (problems.get(name)?.length ?? 0)) problems.set(name, told);
  });
  return [...problems.values()];
}
