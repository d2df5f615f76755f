import type { BenchOptions } from '../lib/options.ts';
import { ENDPOINTS, ORDER_BODY, requestFor } from '../lib/endpoints.ts';
import { formatPairedRatio, measureShared, medianCpuPerRequestUs, pairedRatio } from '../lib/shared-rounds.ts';
import { startGenerated, seed, type GeneratedServer } from '../lib/generated-server.ts';
import { checkoutRef } from '../lib/ref-checkout.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { expectStatus } from '../lib/raw-request.ts';
import { formatNumber, formatRatio } from '../lib/format.ts';
import type { Target } from '../lib/rounds.ts';
import type { Log, SectionResult } from '../lib/section.ts';
import { createDatabase, startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';

const SEED_COUNT = 25;
/** Two processes of the same code land this close to 1 or the figures are flagged (as in request-path). */
const CONTROL_TOLERANCE = 0.1;

/**
 * `--against REF`: the generated server of this tree (c) beside the generated server of another
 * commit (r), each example API served by its own code, two processes of each, on the selected
 * endpoints, side by side. c/r above 1: this tree serves more requests per CPU-second. What a change
 * bought (or cost) is then a figure of one run, not a comparison of two runs on a drifting machine.
 */
export async function againstRef(options: BenchOptions, log: Log): Promise<SectionResult> {
  const ref = options.against;
  if (ref === undefined) throw new Error('the against section needs --against REF');
  const checkout = checkoutRef(ref);
  const dataDir = tempDir('against');
  const started: GeneratedServer[] = [];
  const onPostgres = options.againstEngine === 'postgres';
  let postgres: PostgresServer | undefined;
  try {
    log(
      `against ${ref} (${checkout.commit}): starting two generated servers of each tree${onPostgres ? ' on PostgreSQL' : ''}`,
    );
    if (onPostgres) postgres = await startPostgres({ durable: true });
    const start = async (root: string, name: string) => {
      // On PostgreSQL a database each: the two trees may lay out their tables differently.
      const server = await startGenerated(
        root,
        dataDir,
        name,
        postgres === undefined ? {} : { databaseUrl: await createDatabase(postgres.url) },
      );
      started.push(server);
      await seed(server.server.url, '/v1/orders', server.headers, ORDER_BODY, SEED_COUNT);
      return server;
    };
    const servers = {
      c: await start(REPO_ROOT, 'c'),
      "c'": await start(REPO_ROOT, 'c-control'),
      r: await start(checkout.root, 'r'),
      "r'": await start(checkout.root, 'r-control'),
    };
    const rows: string[][] = [];
    const checks: string[] = [];
    // Every endpoint without compression; GET list of 20, the one body over the 1 KiB threshold, also with gzip.
    const cases = options.endpoints.flatMap((id) => [
      { id, gzip: false },
      ...(id === 'get-list' && options.gzip ? [{ id, gzip: true }] : []),
    ]);
    for (const { id, gzip } of cases) {
      const endpoint = ENDPOINTS[id];
      const title = gzip ? `${endpoint.title}, gzip` : endpoint.title;
      log(`against ${ref}: ${title}, the four servers side by side`);
      const targets: Target[] = [];
      for (const [label, server] of Object.entries(servers)) {
        // A revalidation sends back the tag this very server gave (each tree tags its own bytes).
        const etag = endpoint.revalidates
          ? ((
              await expectStatus(
                server.server.url,
                { method: 'GET', path: endpoint.path, headers: server.headers },
                200,
              )
            ).header('ETag') ?? '')
          : '';
        const request = requestFor(endpoint, server.headers, etag);
        targets.push({
          label,
          server: server.server,
          request: gzip ? { ...request, headers: { ...request.headers, 'Accept-Encoding': 'gzip' } } : request,
        });
      }
      const shared = await measureShared(targets, options.plan, log);
      const ratio = pairedRatio(shared, ['c', "c'"], ['r', "r'"]);
      for (const [twin, of] of [
        ["c'", 'c'],
        ["r'", 'r'],
      ] as const) {
        const control = pairedRatio(shared, of, twin);
        checks.push(
          `${title}: ${of}/${twin} = ${formatPairedRatio(control)}${Math.abs(control.median - 1) <= CONTROL_TOLERANCE ? '' : ' (beyond the method tolerance: the figure is not to be trusted)'}`,
        );
      }
      const cpu = (labels: readonly string[]) => labels.map((label) => medianCpuPerRequestUs(shared, label));
      rows.push([
        title,
        cpu(['c', "c'"])
          .map((value) => formatNumber(value, 1))
          .join(' / '),
        cpu(['r', "r'"])
          .map((value) => formatNumber(value, 1))
          .join(' / '),
        formatPairedRatio(ratio),
        ratio.valid ? '' : 'unexpected statuses',
      ]);
    }
    return {
      tables: [
        {
          title: `This tree (c) against ${ref} (r, ${checkout.commit}): the generated servers side by side${onPostgres ? ', on PostgreSQL' : ''}`,
          columns: [
            { title: 'endpoint' },
            { title: 'µs CPU/req c / c′', align: 'right' },
            { title: 'µs CPU/req r / r′', align: 'right' },
            { title: 'c/r side by side', align: 'right' },
            { title: '' },
          ],
          rows,
          notes: [
            `Four processes loaded at once on the CPU they share (${options.plan.connections} connections each), ${options.plan.rounds} rounds of ${options.plan.durationSeconds} s after a warm-up; c/r compares the mean µs CPU/req of c and c′ with that of r and r′, per round: the median (lowest–highest). Above 1, this tree is cheaper per request. Each tree serves its own example API with its own runtime, on ${onPostgres ? 'a database of its own on one PostgreSQL server (fsync on)' : 'a fresh SQLite file'} with ${SEED_COUNT} orders.`,
            `Method check, two processes of the same code (${formatRatio(1)} with a perfect method): ${checks.join('; ')}.`,
          ],
        },
      ],
      targets: [],
    };
  } finally {
    await Promise.all(started.map((server) => server.server.stop()));
    await postgres?.stop();
    checkout.remove();
  }
}
