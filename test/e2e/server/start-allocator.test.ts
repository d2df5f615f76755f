import { describe, expect, it } from 'vitest';
import { environmentOf } from '../../support/process-memory.ts';
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
