import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { REPOSITORY } from './spawn-server.ts';

const exec = promisify(execFile);

/** The toolkit's packages, as `npm pack` names their tarballs. */
export const PACKAGES = ['@convapi/dsl', '@convapi/runtime', '@convapi/cli'] as const;
export type PackageName = (typeof PACKAGES)[number];

/**
 * What a user's shell has, and nothing of this repository's: Node 24 (this process's, so npm and the
 * CLIs run on it before a project installs its own pin) and the system's PATH, without the npm_*
 * variables of the `npm test` running us (npm would read them as its own configuration) or Vite's
 * BASE_URL.
 */
export function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const path = (process.env.PATH ?? '').split(':').filter((entry) => !entry.startsWith(REPOSITORY));
  const kept = Object.entries(process.env).filter(
    ([key]) => !/^npm_/i.test(key) && key !== 'BASE_URL' && key !== 'NODE_OPTIONS',
  );
  return { ...Object.fromEntries(kept), PATH: [dirname(process.execPath), ...path].join(':'), ...extra };
}

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command in a folder as a user would, never throwing: the exit code and output tell. */
export async function runIn(
  cwd: string,
  command: string,
  args: string[],
  env = userEnvironment(),
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await exec(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 240_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: `${failed.stderr ?? ''}${typeof failed.code === 'string' ? failed.code : ''}`,
    };
  }
}

/** Like runIn, but a non-zero exit is an error carrying the output. */
export async function mustRun(
  cwd: string,
  command: string,
  args: string[],
  env = userEnvironment(),
): Promise<CommandResult> {
  const result = await runIn(cwd, command, args, env);
  if (result.code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code} in ${cwd}:\n${result.stdout}\n${result.stderr}`,
    );
  return result;
}

/**
 * `npm pack` of every workspace package into a new temporary folder (outside the repository), built
 * by each package's prepack script exactly as a release would be. Returns tarball paths by name.
 */
export async function packToolkit(): Promise<{ folder: string; tarballs: Record<PackageName, string> }> {
  const folder = mkdtempSync(join(tmpdir(), 'convapi-packs-'));
  const { stdout } = await mustRun(REPOSITORY, 'npm', [
    'pack',
    '--workspaces',
    '--json',
    '--pack-destination',
    folder,
    '--loglevel=error',
  ]);
  const packed = JSON.parse(stdout) as Array<{ name: string; filename: string }>;
  const tarballs = Object.fromEntries(packed.map((entry) => [entry.name, join(folder, entry.filename)])) as Record<
    PackageName,
    string
  >;
  for (const name of PACKAGES) if (tarballs[name] === undefined) throw new Error(`npm pack made no tarball of ${name}`);
  return { folder, tarballs };
}

/** A new npm project in a temporary folder, as `npm init -y` makes it. */
export async function newNpmProject(prefix: string): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  await mustRun(root, 'npm', ['init', '-y', '--loglevel=error']);
  return root;
}

/** Edits a project's package.json. */
export function editManifest(root: string, edit: (manifest: Record<string, unknown>) => void): void {
  const file = join(root, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(manifest);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
