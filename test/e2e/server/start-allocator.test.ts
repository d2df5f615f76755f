import { describe, expect, it } from 'vitest';
import { commandLineOf, environmentOf } from '../../support/process-memory.ts';
import { spawnNpmStart } from '../../support/spawn-server.ts';

/** What `npm start` starts the server process with, under the environment `env` of the operator. */
async function allocatorSetting(env: Record<string, string>): Promise<string | undefined> {
  const server = await spawnNpmStart({ DATABASE_URL: 'sqlite::memory:', ...env });
  try {
    return environmentOf(server.pid).MALLOC_MMAP_THRESHOLD_;
  } finally {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }
}

// glibc reads its malloc settings once, as the process starts: only the start command can set them.
describe.runIf(process.platform === 'linux')("`npm start` and glibc's malloc", () => {
  it('starts the server with large blocks mapped on their own from 128 KiB (memory returns after a burst)', async () => {
    expect(await allocatorSetting({})).toBe('131072');
  });

  it("keeps the operator's own value", async () => {
    expect(await allocatorSetting({ MALLOC_MMAP_THRESHOLD_: '262144' })).toBe('262144');
  });
});

// V8 grows the young generation while start-up loads every module and keeps it at that size: capped,
// a request-serving server holds half as much in it, idle and under load (BENCHMARKS.md, memory).
describe.runIf(process.platform === 'linux')("`npm start` and V8's young generation", () => {
  it('starts node with each semi-space capped at 8 MiB', async () => {
    const server = await spawnNpmStart({ DATABASE_URL: 'sqlite::memory:' });
    try {
      const [program, ...flags] = commandLineOf(server.pid);
      expect(program).toMatch(/node$/);
      expect(
        flags.slice(
          0,
          flags.findIndex((flag) => flag.endsWith('main.ts')),
        ),
      ).toContain('--max-semi-space-size=8');
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
