import type { BenchOptions } from '../lib/options.ts';
import { ORDER_BODY, requestFor, type Endpoint } from '../lib/endpoints.ts';
import { formatPairedRatio, measureShared, medianCpuPerRequestUs, pairedRatio } from '../lib/shared-rounds.ts';
import { startGenerated, seed } from '../lib/generated-server.ts';
import { startOrdersServer } from '../lib/orders-server.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { formatNumber } from '../lib/format.ts';
import type { ServerProcess } from '../lib/server-process.ts';
import type { Target } from '../lib/rounds.ts';
import type { Log, SectionResult } from '../lib/section.ts';

/** Page sizes measured: one row, the usual page, a large one, and the generated server's maximum. */
export const LIST_LIMITS = [1, 20, 100, 500] as const;
const ROWS = 500;
/** The servers c is compared with, a ratio column each. */
const PEERS = ['b', 'f', 'o'] as const;

/**
 * How the cost of a list grows with its page size: the generated server (c), hand-written Koa (b)
 * Fastify (f) and Hono (o), side by side, on GET /v1/orders?limit=N over 500 orders. The per-row cost (the
 * slope from 1 to 500 rows) tells fixed costs from per-row work.
 */
export async function listScaling(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('list-scaling');
  const started: ServerProcess[] = [];
  try {
    log(`list scaling: starting c, b, f and o with ${ROWS} orders each`);
    const generated = await startGenerated(REPO_ROOT, dataDir, 'list-c');
    started.push(generated.server);
    await seed(generated.server.url, '/v1/orders', generated.headers, ORDER_BODY, ROWS);
    const peer = async (server: 'b' | 'f' | 'o') => {
      const process = await startOrdersServer(server, dataDir, {
        gzip: false,
        name: `list-${server}`,
        seedCount: ROWS,
        headers: generated.headers,
      });
      started.push(process);
      return process;
    };
    const servers = { c: generated.server, b: await peer('b'), f: await peer('f'), o: await peer('o') };
    const rows: string[][] = [];
    const cpuAt = new Map<string, number>();
    for (const limit of LIST_LIMITS) {
      const endpoint: Endpoint = {
        title: `GET list of ${limit}`,
        method: 'GET',
        path: `/v1/orders?limit=${limit}`,
        expectStatus: 200,
        revalidates: false,
      };
      log(`list scaling: limit ${limit}, the four servers side by side`);
      const targets: Target[] = Object.entries(servers).map(([label, server]) => ({
        label,
        server,
        request: requestFor(endpoint, generated.headers, ''),
      }));
      const shared = await measureShared(targets, options.plan, log);
      const cpu = Object.fromEntries(
        Object.keys(servers).map((label) => [label, medianCpuPerRequestUs(shared, label)]),
      );
      for (const [label, value] of Object.entries(cpu)) cpuAt.set(`${label} ${limit}`, value);
      rows.push([
        String(limit),
        ...Object.values(cpu).map((value) => formatNumber(value, 1)),
        ...PEERS.map((peer) => formatPairedRatio(pairedRatio(shared, 'c', peer))),
      ]);
    }
    const [first, last] = [LIST_LIMITS[0], LIST_LIMITS[LIST_LIMITS.length - 1]!];
    const perRow = Object.keys(servers).map(
      (label) =>
        `${label} ${formatNumber((cpuAt.get(`${label} ${last}`)! - cpuAt.get(`${label} ${first}`)!) / (last - first), 2)} µs`,
    );
    return {
      tables: [
        {
          title: `List-size scaling: GET /v1/orders?limit=N over ${ROWS} orders, side by side`,
          columns: [
            { title: 'limit', align: 'right' },
            ...Object.keys(servers).map((label) => ({ title: `µs CPU/req ${label}`, align: 'right' as const })),
            ...PEERS.map((peer) => ({ title: `c/${peer}`, align: 'right' as const })),
          ],
          rows,
          notes: [
            `c generated, b Koa + @koa/router, f Fastify 5, o Hono 4 (as in the request-path table), loaded at once on the CPU they share, ${options.plan.connections} connections each, ${options.plan.rounds} rounds of ${options.plan.durationSeconds} s per limit after a warm-up; c/b, c/f and c/o: requests per CPU-second, the median of the rounds (lowest–highest).`,
            `Per row (the slope of µs CPU/req from ${first} to ${last} rows): ${perRow.join(', ')}. What is left at one row is each server's fixed cost per request.`,
          ],
        },
      ],
      targets: [],
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}
