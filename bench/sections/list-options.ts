import type { BenchOptions } from '../lib/options.ts';
import { formatPairedRatio, measureShared, medianCpuPerRequestUs, pairedRatio } from '../lib/shared-rounds.ts';
import { requestHeaders, startGenerated } from '../lib/generated-server.ts';
import { expectStatus } from '../lib/raw-request.ts';
import { issueToken } from '../lib/token.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { verdict } from '../lib/stats.ts';
import { formatNumber, formatRatioAgainst } from '../lib/format.ts';
import type { ServerProcess } from '../lib/server-process.ts';
import type { Target } from '../lib/rounds.ts';
import type { Log, SectionResult, TargetCheck } from '../lib/section.ts';

/** Rows in each table: the page of 20 is found among them. */
const ROWS = 10_000;
/** The notes the measured caller owns, spread through the table. */
const OWNED = 20;
/** Writes in flight at once while seeding. */
const SEEDING_TOGETHER = 16;
/** A row rule may cost this much over the same page without one. */
const ROW_RULE_TARGET = 1.2;
/** A page sorted by an indexed field may cost this much over the unsorted page. */
const SORT_TARGET = 1.1;

/** One comparison: the same page of 20, asked with an option (a row rule, a sort) and without it. */
interface Comparison {
  readonly title: string;
  readonly withOption: { readonly path: string; readonly headers: Record<string, string>; readonly what: string };
  readonly without: { readonly path: string; readonly headers: Record<string, string>; readonly what: string };
  readonly target: number;
  readonly targetName: string;
}

/** POSTs `count` bodies, `SEEDING_TOGETHER` at a time. */
async function seedMany(
  url: string,
  path: string,
  headers: Record<string, string>,
  count: number,
  bodyOf: (index: number) => unknown,
): Promise<void> {
  for (let first = 0; first < count; first += SEEDING_TOGETHER)
    await Promise.all(
      Array.from({ length: Math.min(SEEDING_TOGETHER, count - first) }, (_, offset) =>
        expectStatus(
          url,
          {
            method: 'POST',
            path,
            headers: { ...headers, 'Content-Type': 'application/json' },
            body: JSON.stringify(bodyOf(first + offset)),
          },
          201,
        ),
      ),
    );
}

/**
 * What a list's options cost: a page of 20 notes that a row rule picks out of 10,000 (the caller's
 * own, `owner = caller.user`, an indexed WHERE) against the first 20 of them for a caller the rule
 * lets see every row (scope notes:admin: no condition at all), and a page of 20 pets sorted by an
 * indexed field (`sort=pet_name`) against the unsorted page. Two processes of the generated server
 * share one SQLite file, each loaded with one side, side by side on the CPU they share.
 */
export async function listOptions(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('list-options');
  const started: ServerProcess[] = [];
  try {
    log(`list options: starting the generated server and writing ${ROWS} notes and ${ROWS} pets`);
    const first = await startGenerated(REPO_ROOT, dataDir, 'list-options');
    started.push(first.server);
    const { databaseUrl } = first;
    const admin = requestHeaders(
      `Bearer ${issueToken(databaseUrl, 'bench-admin', { user: 'admin', scopes: ['notes:admin', 'notes:write'] })}`,
    );
    const owner = requestHeaders(`Bearer ${issueToken(databaseUrl, 'bench-owner', { user: 'alice' })}`);
    const spacing = ROWS / OWNED;
    await seedMany(first.server.url, '/v1/notes', admin, ROWS, (index) => ({
      owner: index % spacing === 0 ? 'alice' : `user-${index % 97}`,
      title: `note ${index}`,
    }));
    // Names in no order the table keeps (a multiplicative hash of the index), so sorting has work to do.
    await seedMany(first.server.url, '/v1/pets', first.headers, ROWS, (index) => ({
      pet_name: `pet-${((index * 2_654_435_761) % 4_294_967_296).toString(36)}`,
    }));
    const second = await startGenerated(REPO_ROOT, dataDir, 'list-options-2', { databaseUrl });
    started.push(second.server);
    const comparisons: Comparison[] = [
      {
        title: `row rule: the caller's ${OWNED} notes among ${ROWS}`,
        withOption: { path: '/v1/notes?limit=20', headers: owner, what: `a caller who owns ${OWNED} of them` },
        without: { path: '/v1/notes?limit=20', headers: admin, what: 'a caller with notes:admin (no condition)' },
        target: ROW_RULE_TARGET,
        targetName: `list options: a page of ${OWNED} visible among ${ROWS} under a row rule / the page without it`,
      },
      {
        title: `sorted by an indexed field: 20 pets of ${ROWS}`,
        withOption: { path: '/v1/pets?limit=20&sort=pet_name', headers: first.headers, what: 'sort=pet_name' },
        without: { path: '/v1/pets?limit=20', headers: first.headers, what: 'in identifier order' },
        target: SORT_TARGET,
        targetName: `list options: a page of 20 sorted by an indexed field / unsorted, ${ROWS} rows`,
      },
    ];
    const rows: string[][] = [];
    const targets: TargetCheck[] = [];
    const invalid: string[] = [];
    for (const comparison of comparisons) {
      // Which process serves which side alternates between the comparisons, so neither side always
      // gets the same process's memory layout.
      const [withServer, withoutServer] =
        comparisons.indexOf(comparison) % 2 === 0 ? [first.server, second.server] : [second.server, first.server];
      const sides: Target[] = [
        {
          label: 'with',
          server: withServer,
          request: {
            method: 'GET',
            path: comparison.withOption.path,
            headers: comparison.withOption.headers,
            expectStatus: 200,
          },
        },
        {
          label: 'without',
          server: withoutServer,
          request: {
            method: 'GET',
            path: comparison.without.path,
            headers: comparison.without.headers,
            expectStatus: 200,
          },
        },
      ];
      log(`list options: ${comparison.title}, side by side`);
      const shared = await measureShared(sides, options.plan, log);
      // Requests per CPU-second of the page without the option against the page with it: what the option costs.
      const cost = pairedRatio(shared, 'without', 'with');
      if (!cost.valid) invalid.push(`(!) ${comparison.title}: unexpected responses while the servers ran`);
      rows.push([
        comparison.title,
        `${comparison.withOption.path} (${comparison.withOption.what})`,
        formatNumber(medianCpuPerRequestUs(shared, 'with'), 1),
        `${comparison.without.path} (${comparison.without.what})`,
        formatNumber(medianCpuPerRequestUs(shared, 'without'), 1),
        formatPairedRatio(cost),
      ]);
      targets.push({
        name: comparison.targetName,
        target: `<= ${comparison.target}`,
        figure: formatRatioAgainst(cost.median, comparison.target),
        verdict: cost.valid ? verdict(cost.median, comparison.target, 'at-most') : 'n/a',
      });
    }
    return {
      tables: [
        {
          title: `List options: a page of 20 with a row rule or a sort, against the same page without, side by side`,
          columns: [
            { title: 'option' },
            { title: 'with' },
            { title: 'µs CPU/req', align: 'right' },
            { title: 'without' },
            { title: 'µs CPU/req', align: 'right' },
            { title: 'with/without', align: 'right' },
          ],
          rows,
          notes: [
            `Two processes of the generated server on one SQLite file (${ROWS} notes, ${OWNED} of them owned by the measured caller, one in every ${spacing}; ${ROWS} pets with unordered names), each loaded with one side at once, ${options.plan.connections} connections each, ${options.plan.rounds} rounds of ${options.plan.durationSeconds} s; the processes swap sides from one comparison to the next. with/without: the CPU time per request of the page with the option over the page without it, the median of the rounds (lowest–highest). Targets: row rule <= ${ROW_RULE_TARGET}, sort <= ${SORT_TARGET}.`,
            `Both sides count their rows for X-Total-Count: ${OWNED} through the owner index with the row rule, all ${ROWS} without it.`,
            ...invalid,
          ],
        },
      ],
      targets,
    };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}
