import { spawn, type ChildProcess, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';
import { postgresBinaries } from './system-packages.ts';

/** The superuser's password in every test server: tests of wrong credentials need password auth. */
export const POSTGRES_PASSWORD = 'test-secret';

export interface PostgresServer {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** Stops the server as a restart or failover would (its data kept); resume() starts it again on the same port. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the server for good and removes its data. */
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root: when the tests run as root (CI), the server runs as `nobody`,
 * in a folder it owns. Otherwise as the current user.
 */
function runAs(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

export interface StartPostgresOptions {
  /**
   * Keep PostgreSQL's own durability (fsync, synchronous commit), as a production server has it: the
   * bench wants that. Default false: test data need not survive a power cut, and tests run faster.
   */
  readonly durable?: boolean;
}

/**
 * Starts a throwaway PostgreSQL server (initdb + postgres) in a temporary folder on a free loopback
 * port and waits until it accepts queries. Used by the tests (vitest's global setup) and the bench.
 */
export async function startPostgres({ durable = false }: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (bin === undefined) {
    throw new Error(
      'PostgreSQL server binaries not found: install them (apt-get install -y postgresql) or set POSTGRES_BIN to the folder holding initdb and postgres',
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(folder, 'data');
  const passwordFile = join(folder, 'password');
  writeFileSync(passwordFile, `${POSTGRES_PASSWORD}\n`);
  const user = runAs();
  if (user.uid !== undefined) {
    chownSync(folder, user.uid, user.gid!);
    chownSync(passwordFile, user.uid, user.gid!);
  }
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', HOME: folder };
  const init = spawnSync(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'postgres',
      '--pwfile',
      passwordFile,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ],
    { ...user, env, encoding: 'utf8', cwd: folder },
  );
  if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.error?.message}`);
  const port = await freePort();
  const url = `postgres://postgres:${POSTGRES_PASSWORD}@127.0.0.1:${port}/postgres`;
  const run = () => runPostgres({ bin, data, folder, port, durable, user, env, url });
  let running = await run();
  return {
    url,
    port,
    halt: async () => {
      // Fast shutdown (SIGINT): the data stays, as an operator's restart or a failover leaves it.
      if (running.child.exitCode === null) running.child.kill('SIGINT');
      await running.exited;
    },
    resume: async () => {
      running = await run();
    },
    stop: async () => {
      // Immediate shutdown: nothing here needs to survive.
      if (running.child.exitCode === null) running.child.kill('SIGQUIT');
      await running.exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

interface RunPostgresOptions {
  readonly bin: string;
  readonly data: string;
  readonly folder: string;
  readonly port: number;
  readonly durable: boolean;
  readonly user: { uid?: number; gid?: number };
  readonly env: NodeJS.ProcessEnv;
  readonly url: string;
}

/** Starts the postgres process on an initialised data folder and waits until it accepts queries. */
async function runPostgres({
  bin,
  data,
  folder,
  port,
  durable,
  user,
  env,
  url,
}: RunPostgresOptions): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child: ChildProcess = spawn(
    join(bin, 'postgres'),
    [
      ...[
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${folder}`,
        '-c',
        'max_connections=300',
      ],
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    { ...user, env, cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const log: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return { child, exited };
    } catch (error) {
      await client.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log.join('')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A new, empty database on a test server; returns its URL. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
