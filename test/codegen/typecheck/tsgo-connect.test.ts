import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API } from '@typescript/native-preview/unstable/async';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectApi } from '../../../codegen/typecheck/tsgo-server.ts';

/** A socket file nothing listens on, as tsgo's is between its bind and its listen: what a process killed while listening leaves. */
async function refusingSocket(path: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('listening'))`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  expect(existsSync(path)).toBe(true);
}

describe('connectApi(): the watcher connects to tsgo as its server starts', () => {
  it('tries again while the socket refuses, or is not there, and connects once it listens', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'convapi-tsgo-connect-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const socket = join(folder, 'api.sock');
    await refusingSocket(socket);
    let accepted = 0;
    let server: Server | undefined;
    onTestFinished(() => void server?.close());
    // Refused for a while, then gone for a while, then listened on: each state tsgo's start passes through.
    setTimeout(() => rmSync(socket), 100);
    setTimeout(() => {
      server = createServer((connection) => {
        accepted += 1;
        connection.destroy();
      }).listen(socket);
    }, 200);
    await connectApi(new API({ pipe: socket }), socket);
    await expect.poll(() => accepted).toBe(1);
  });

  it('gives up at once when tsgo has ended, with what the connection met', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'convapi-tsgo-connect-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const socket = join(folder, 'api.sock');
    await refusingSocket(socket);
    await expect(connectApi(new API({ pipe: socket }), socket, () => true)).rejects.toThrow(/ECONNREFUSED/);
  });
});
