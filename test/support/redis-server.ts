import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { describeNeeding } from './describe-needing.ts';
import { REDIS, redisServerPath } from './system-packages.ts';

/** `describe` for tests that need a Redis server (see system-packages.ts for when they are skipped). */
export function describeWithRedis(name: string, body: () => void): void {
  describeNeeding(REDIS, name, body);
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Kills the server (the port stays free for `restart`). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Stops it for good and removes its folder. */
  dispose(): Promise<void>;
}

/** Starts a throwaway Redis on a free loopback port in a temporary folder, no persistence, and waits for it. */
export async function startRedis(): Promise<RedisServer> {
  if (!REDIS.installed())
    throw new Error('redis-server is not installed: apt-get install -y redis-server (or set REDIS_SERVER)');
  const folder = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const port = await freePort();
  let child: ReturnType<typeof spawn> | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    const started = spawn(
      redisServerPath(),
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder],
      {
        cwd: folder,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    const output: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output.join('')}`)), 10_000);
      const look = (chunk: Buffer) => {
        output.push(chunk.toString());
        if (/Ready to accept connections/.test(output.join(''))) {
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout!.on('data', look);
      started.stderr!.on('data', look);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited:\n${output.join('')}`));
      });
    });
  };
  const stop = async () => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: start,
    dispose: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
