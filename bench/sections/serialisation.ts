import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.ts';
import { ENDPOINTS, ORDER_BODY, requestFor, type Endpoint } from '../lib/endpoints.ts';
import { seed, startGenerated } from '../lib/generated-server.ts';
import { expectStatus } from '../lib/raw-request.ts';
import { REPO_ROOT, repoPath } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { formatNumber } from '../lib/format.ts';
import type { Log, SectionResult } from '../lib/section.ts';

const REQUESTS = 200;

type Counts = Record<string, number>;

/** An error answer too: error bodies go through the same serialiser. */
const NOT_FOUND: Endpoint = {
  title: 'GET unknown id -> 404',
  method: 'GET',
  path: '/v1/orders/999999',
  expectStatus: 404,
  revalidates: false,
};

/**
 * "Every response serialised once", observed rather than timed: the generated server runs
 * with a preloaded probe counting JSON.stringify calls by call site (probes/count-stringify.ts), the
 * bench sends a fixed number of each request one at a time, and reports calls per request.
 */
export async function serialisation(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('serialisation');
  const probeFile = join(dataDir, 'counts.json');
  log('serialisation: starting the generated server with the JSON.stringify probe');
  const generated = await startGenerated(REPO_ROOT, dataDir, 'generated-probe', {
    nodeArgs: ['--import', new URL(`file://${repoPath('bench', 'probes', 'count-stringify.ts')}`).href],
    env: { PROBE_FILE: probeFile },
  });
  const { server, headers } = generated;
  try {
    await seed(server.url, '/v1/orders', headers, ORDER_BODY, 25);
    const etag =
      (await expectStatus(server.url, { method: 'GET', path: ENDPOINTS['get-one'].path, headers }, 200)).header(
        'ETag',
      ) ?? '';
    const snapshot = () => readCounts(server.pid, probeFile);
    const rows: string[][] = [];
    const totals: number[] = [];
    for (const endpoint of [...options.endpoints.map((id) => ENDPOINTS[id]), NOT_FOUND]) {
      const request = requestFor(endpoint, headers, etag);
      const before = await snapshot();
      for (let index = 0; index < REQUESTS; index += 1) await expectStatus(server.url, request, endpoint.expectStatus);
      const after = await snapshot();
      const perSite = Object.entries(after)
        .map(([site, count]) => [site, (count - (before[site] ?? 0)) / REQUESTS] as const)
        .filter(([, perRequest]) => perRequest > 0)
        .sort((a, b) => b[1] - a[1]);
      const total = perSite.reduce((sum, [, perRequest]) => sum + perRequest, 0);
      totals.push(total);
      rows.push([
        endpoint.title,
        String(REQUESTS),
        formatNumber(total, 2),
        perSite.map(([site, perRequest]) => `${formatNumber(perRequest, 2)} × ${site}`).join('; ') || '-',
      ]);
    }
    return {
      tables: [
        {
          title: 'Serialisation: JSON.stringify calls per request in the generated server (observed, not timed)',
          columns: [
            { title: 'request' },
            { title: 'requests', align: 'right' },
            { title: 'calls/request', align: 'right' },
            { title: 'call sites' },
          ],
          rows,
          notes: [
            'A preloaded probe (bench/probes/count-stringify.ts) counts every JSON.stringify in the server process; requests are sent one at a time after seeding.',
            'One call per response with a body means the body is serialised once (the ETag and gzip work on those same bytes); a 304 still serialises once to compute its tag.',
          ],
        },
      ],
      targets: [
        {
          name: 'every response serialised once (observed, not timed)',
          target: '1 JSON.stringify per response',
          figure: totals.every((total) => total === 1)
            ? '1 each'
            : totals.map((total) => formatNumber(total, 2)).join(' / '),
          verdict: totals.every((total) => total === 1) ? 'pass' : 'FAIL',
        },
      ],
    };
  } finally {
    await server.stop();
  }
}

/** Asks the probe for its counts (SIGUSR2) and waits for the file it writes. */
async function readCounts(pid: number, file: string): Promise<Counts> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 20) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Counts;
      } catch {
        // Caught mid-write: try again.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the serialisation probe did not answer SIGUSR2 within 5 s');
}
