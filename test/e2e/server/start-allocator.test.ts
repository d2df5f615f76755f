import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeNeeding } from '../../support/describe-needing.ts';
import { commandLineOf, environmentOf } from '../../support/process-memory.ts';
import { spawnNpmStart } from '../../support/spawn-server.ts';
import { JEMALLOC, jemallocPath } from '../../support/system-packages.ts';

/** The command line, environment and mapped shared libraries `npm start` starts the server process with, under the operator's `env`. */
async function serverProcess(
  env: Record<string, string>,
): Promise<{ commandLine: string[]; env: Record<string, string>; maps: string }> {
  const server = await spawnNpmStart({ DATABASE_URL: 'sqlite::memory:', ...env });
  try {
    return {
      commandLine: commandLineOf(server.pid),
      env: environmentOf(server.pid),
      maps: readFileSync(`/proc/${server.pid}/maps`, 'utf8'),
    };
  } finally {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }
}

const OWN_DECAY = 'background_thread:true,dirty_decay_ms:2000';

// Allocators read their settings once, as the process starts: only the start command can set them.
describe.runIf(process.platform === 'linux')('`npm start` and the C allocator', () => {
  describeNeeding(JEMALLOC, 'where jemalloc is installed', () => {
    it('starts the server on jemalloc, returning freed pages within a second', async () => {
      const server = await serverProcess({});
      expect(server.env.LD_PRELOAD).toBe(jemallocPath());
      expect(server.env.MALLOC_CONF).toBe('background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0');
      expect(server.maps).toContain('libjemalloc.so.2');
      expect(server.env.MALLOC_MMAP_THRESHOLD_).toBeUndefined();
    });

    it("keeps the operator's own MALLOC_CONF", async () => {
      const server = await serverProcess({ MALLOC_CONF: OWN_DECAY });
      expect(server.maps).toContain('libjemalloc.so.2');
      expect(server.env.MALLOC_CONF).toBe(OWN_DECAY);
    });
  });

  it("keeps the operator's own LD_PRELOAD (empty: glibc's malloc), with large blocks mapped on their own from 128 KiB", async () => {
    const server = await serverProcess({ LD_PRELOAD: '' });
    expect(server.env.LD_PRELOAD).toBe('');
    expect(server.maps).not.toContain('libjemalloc');
    expect(server.env.MALLOC_MMAP_THRESHOLD_).toBe('131072');
  });

  it("keeps the operator's own MALLOC_MMAP_THRESHOLD_ on glibc's malloc", async () => {
    const server = await serverProcess({ LD_PRELOAD: '', MALLOC_MMAP_THRESHOLD_: '262144' });
    expect(server.env.MALLOC_MMAP_THRESHOLD_).toBe('262144');
  });
});

// V8 grows the young generation while start-up loads every module and keeps it at that size: capped,
// a request-serving server holds half as much in it, idle and under load (BENCHMARKS.md, memory).
describe.runIf(process.platform === 'linux')("`npm start` and V8's young generation", () => {
  it('starts node with each semi-space capped at 8 MiB', async () => {
    const [program, ...flags] = (await serverProcess({})).commandLine;
    expect(program).toMatch(/node$/);
    expect(
      flags.slice(
        0,
        flags.findIndex((flag) => flag.endsWith('main.ts')),
      ),
    ).toContain('--max-semi-space-size=8');
  });
});
