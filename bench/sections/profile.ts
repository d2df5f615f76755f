import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.ts';
import { ENDPOINTS, ORDER_BODY, requestFor } from '../lib/endpoints.ts';
import { seed, startGenerated } from '../lib/generated-server.ts';
import { loadOnce } from '../lib/load.ts';
import { expectStatus } from '../lib/raw-request.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { selfTimeByArea, type CpuProfile } from '../lib/cpu-profile.ts';
import { formatNumber } from '../lib/format.ts';
import type { Log, SectionResult } from '../lib/section.ts';

/**
 * Where the generated server's time goes (only with `--only profile`): the server runs under
 * --cpu-prof, is loaded with one endpoint, and the samples taken during the load are summed by code
 * area (runtime folder, package, Node module). Profiling slows the server, so these are shares, not
 * speeds; they point at what to optimise.
 */
export async function profile(options: BenchOptions, log: Log): Promise<SectionResult> {
  const id = options.endpoints.length === 1 ? options.endpoints[0]! : 'get-one';
  const endpoint = ENDPOINTS[id];
  const dataDir = tempDir('profile');
  const profileDir = join(dataDir, 'cpu');
  log(`profile: ${endpoint.title} on the generated server under --cpu-prof`);
  const { server, headers } = await startGenerated(REPO_ROOT, dataDir, 'generated-profiled', {
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  });
  let window: { fromUs: number; toUs: number; requests: number };
  try {
    await seed(server.url, '/v1/orders', headers, ORDER_BODY, 25);
    const etag =
      (await expectStatus(server.url, { method: 'GET', path: ENDPOINTS['get-one'].path, headers }, 200)).header(
        'ETag',
      ) ?? '';
    const request = requestFor(endpoint, headers, etag);
    await loadOnce(server.url, request, {
      connections: options.plan.connections,
      durationSeconds: Math.max(1, options.plan.warmupSeconds),
    });
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const durationSeconds = Math.max(5, options.plan.durationSeconds);
    const measured = await loadOnce(server.url, request, { connections: options.plan.connections, durationSeconds });
    window = {
      fromUs,
      toUs: Number(process.hrtime.bigint() / 1000n),
      requests: measured.requestsPerSecond * durationSeconds,
    };
  } finally {
    // The profile is written when the process exits.
    await server.stop();
  }
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no .cpuprofile written in ${profileDir}`);
  const totals = selfTimeByArea(
    JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile,
    window.fromUs,
    window.toUs,
  );
  const sampled = [...totals.values()].reduce((sum, value) => sum + value, 0);
  const busy = sampled - (totals.get('(idle)') ?? 0);
  const rows = [...totals]
    .filter(([area]) => area !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([area, us]) => [area, formatNumber((100 * us) / busy, 1), formatNumber(us / window.requests, 1)]);
  return {
    tables: [
      {
        title: `Profile of the generated server: ${endpoint.title}, self time by area (under --cpu-prof)`,
        columns: [
          { title: 'area' },
          { title: '% of busy time', align: 'right' },
          { title: 'µs/request', align: 'right' },
        ],
        rows,
        notes: [
          `${formatNumber(window.requests)} requests in the sampled window; the server was busy ${formatNumber((100 * busy) / sampled, 0)}% of it.`,
          "Self time only: a middleware's own code, not what it awaits. The profiler itself slows the server.",
        ],
      },
    ],
    targets: [],
  };
}
