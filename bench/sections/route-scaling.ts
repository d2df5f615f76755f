import type { BenchOptions } from '../lib/options.ts';
import { measureTargets, type Summary, type Target } from '../lib/rounds.ts';
import { formatPairedRatio, measureShared, medianCpuPerRequestUs, pairedRatio } from '../lib/shared-rounds.ts';
import { startServer, type ServerProcess } from '../lib/server-process.ts';
import { requestHeaders, seed, startGenerated } from '../lib/generated-server.ts';
import { repoPath } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { verdict } from '../lib/stats.ts';
import { formatNumber, formatRatioAgainst, formatSeconds } from '../lib/format.ts';
import { LOAD_COLUMNS, loadCells } from '../lib/load-cells.ts';
import type { Log, SectionResult } from '../lib/section.ts';
import { generatedProject } from '../synthetic/projects.ts';
import { syntheticCollectionName } from '../synthetic/names.ts';

/** Dispatch must not grow with the number of routes. */
const SCALING_TARGET = 0.9;

/**
 * The same request (GET one widget of the first collection) against generated
 * servers declaring few and many collections, and against plain @koa/router with as many routes,
 * the reference for what scanning routes in turn costs.
 */
export async function routeScaling(options: BenchOptions, log: Log): Promise<SectionResult> {
  const [small, large] = options.scalingCounts;
  const dataDir = tempDir('route-scaling');
  const first = syntheticCollectionName(1);
  const path = `/v1/${first}/1`;
  const started: ServerProcess[] = [];
  try {
    const targets: Target[] = [];
    for (const count of [small, large]) {
      log(`route scaling: generating and starting ${count} collections`);
      const root = await generatedProject(count);
      const generated = await startGenerated(root, dataDir, `generated-${count}`);
      started.push(generated.server);
      await seed(generated.server.url, `/v1/${first}`, generated.headers, '{"label":"x","size":1}', 1);
      targets.push({
        label: `generated ${count}`,
        server: generated.server,
        request: { method: 'GET', path, headers: generated.headers, expectStatus: 200 },
      });
    }
    for (const count of [small, large]) {
      const server = await startServer({
        name: `koa-router-${count}`,
        args: [repoPath('bench', 'servers', 'koa-many-routes.ts')],
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ROUTES: String(count) },
      });
      started.push(server);
      targets.push({
        label: `@koa/router ${count}`,
        server,
        request: { method: 'GET', path, headers: requestHeaders('Bearer unused'), expectStatus: 200 },
      });
    }
    log(`route scaling: GET ${path}`);
    const summaries = await measureTargets(targets, options.plan, log);
    log('route scaling: the four servers side by side');
    const shared = await measureShared(targets, options.plan, log);
    const generated = pairedRatio(shared, `generated ${large}`, `generated ${small}`);
    const koa = pairedRatio(shared, `@koa/router ${large}`, `@koa/router ${small}`);
    const generatedRatio = generated.median;
    const row = (summary: Summary, server: ServerProcess, ratioCell: string) => [
      summary.label.replace(/ \d+$/, ''),
      String(summary.label.match(/\d+$/)?.[0]),
      ...loadCells(summary),
      formatNumber(medianCpuPerRequestUs(shared, summary.label), 1),
      formatSeconds(server.startupMs),
      ratioCell,
    ];
    const rows = targets.map((target, index) => {
      const summary = summaries[index]!;
      const isLarge = summary.label.endsWith(` ${large}`);
      const ratioCell = !isLarge ? '' : formatPairedRatio(summary.label.startsWith('generated') ? generated : koa);
      return row(summary, target.server, ratioCell);
    });
    const invalid = summaries
      .filter((summary) => summary.unexpected > 0)
      .map((summary) => `(!) figures not comparable: ${summary.label}: ${summary.unexpected} unexpected responses`);
    if (!generated.valid || !koa.valid)
      invalid.push('(!) figures not comparable: unexpected responses while the servers ran side by side');
    return {
      tables: [
        {
          title: `Route-count scaling: GET ${path}`,
          columns: [
            { title: 'server' },
            { title: 'collections', align: 'right' },
            ...LOAD_COLUMNS,
            { title: 'µs CPU/req side by side', align: 'right' },
            { title: 'start-up s', align: 'right' },
            { title: `${large}/${small} side by side`, align: 'right' },
          ],
          rows,
          notes: [
            `target for the generated server: ${large}/${small} >= ${SCALING_TARGET} (${verdict(generatedRatio, SCALING_TARGET, 'at-least')}); @koa/router is the reference for a linear route scan.`,
            'Each collection declares a list and an item route under v1; the @koa/router server registers the same two routes per collection.',
            `Requests/s: each server alone. µs CPU/req and ${large}/${small}: the four servers loaded at once on the CPU they share, ${options.plan.rounds} rounds of ${options.plan.durationSeconds} s; ${large}/${small} is how many requests the larger server serves per CPU-second against the smaller (the inverse ratio of their CPU time per request), the median of the rounds' ratios (lowest–highest), so the machine's drift cancels out (see the request path's notes).`,
            ...invalid,
          ],
        },
      ],
      targets: [
        {
          name: `route scaling: generated ${large}/${small} collections`,
          target: `>= ${SCALING_TARGET}`,
          figure: formatRatioAgainst(generatedRatio, SCALING_TARGET),
          verdict:
            summaries.some((summary) => summary.unexpected > 0) || !generated.valid
              ? 'n/a'
              : verdict(generatedRatio, SCALING_TARGET, 'at-least'),
        },
      ],
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}
