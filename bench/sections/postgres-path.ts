import type { BenchOptions, EndpointId } from '../lib/options.ts';
import { ENDPOINTS, ORDER_BODY, requestFor } from '../lib/endpoints.ts';
import { measureTargets, type Summary, type Target } from '../lib/rounds.ts';
import {
  formatPairedRatio,
  measureShared,
  medianCpuPerRequestUs,
  pairedRatio,
  type SharedRounds,
} from '../lib/shared-rounds.ts';
import { startServer, type ServerProcess } from '../lib/server-process.ts';
import { startGenerated, seed } from '../lib/generated-server.ts';
import { REPO_ROOT, repoPath } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { verdict } from '../lib/stats.ts';
import { formatMiB, formatNumber, formatRatio, formatRatioAgainst } from '../lib/format.ts';
import { LOAD_COLUMNS, loadCells } from '../lib/load-cells.ts';
import type { Table } from '../lib/table.ts';
import type { Log, SectionResult, TargetCheck } from '../lib/section.ts';
// The same throwaway server the tests start: the machine's PostgreSQL binaries, a temporary folder, a free port.
import { createDatabase, startPostgres } from '../../test/support/postgres-server.ts';
import { postgresVersion } from '../lib/postgres-version.ts';
import { PEER_POOL } from '../servers/peer-settings.ts';

const SEED_COUNT = 25;
/** On PostgreSQL too, the conventions cost at most 15% over hand-written Koa + pg on GET one. */
const GET_ONE_TARGET = 0.85;
/** The endpoints the PostgreSQL path measures (a revalidation is the SQLite section's concern). */
const MEASURED: readonly EndpointId[] = ['get-one', 'get-list', 'post'];

/**
 * The PostgreSQL path: the generated server (c) with DATABASE_URL=postgres://... beside a
 * hand-written Koa + pg server (b) on the same orders table of the same database, on GET one, GET list
 * of 20 and POST, without compression. GET one also loads a second process of each (b', c') as the
 * request-path section does: the ratio compares the mean of each pair, and b/b', c/c' are the method
 * check. PostgreSQL keeps its durability (fsync on), its CPU is counted for neither side.
 */
export async function postgresPath(options: BenchOptions, log: Log): Promise<SectionResult> {
  const endpoints = MEASURED.filter((id) => options.endpoints.includes(id));
  if (endpoints.length === 0) return { tables: [], targets: [] };
  log('postgres path: starting PostgreSQL, the generated server and the Koa + pg baseline');
  const postgres = await startPostgres({ durable: true });
  const started: ServerProcess[] = [];
  try {
    const databaseUrl = await createDatabase(postgres.url);
    const version = await postgresVersion(databaseUrl);
    const dataDir = tempDir('postgres-path');
    const generated = await startGenerated(REPO_ROOT, dataDir, 'generated-postgres', { databaseUrl });
    started.push(generated.server);
    await seed(generated.server.url, '/v1/orders', generated.headers, ORDER_BODY, SEED_COUNT);
    const twins = endpoints.includes('get-one');
    const cControl = twins
      ? await startGenerated(REPO_ROOT, dataDir, 'generated-postgres-control', { databaseUrl })
      : undefined;
    if (cControl !== undefined) started.push(cControl.server);
    const koa = async (name: string) => {
      const server = await startServer({
        name,
        args: [repoPath('bench', 'servers', 'koa-pg.ts')],
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl },
      });
      started.push(server);
      return server;
    };
    const b = await koa('koa-pg');
    const bControl = twins ? await koa('koa-pg-control') : undefined;
    const c = generated.server;

    const results: Measured[] = [];
    // POST last: it grows the table, which must not change what the reads measured.
    for (const id of endpoints) {
      const endpoint = ENDPOINTS[id];
      log(`postgres path: ${endpoint.title}`);
      const getOne = id === 'get-one';
      const targets: Target[] = [
        { label: 'b', server: b, request: requestFor(endpoint, generated.headers, '') },
        ...(bControl !== undefined && getOne
          ? [{ label: "b'", server: bControl, request: requestFor(endpoint, generated.headers, '') }]
          : []),
        { label: 'c', server: c, request: requestFor(endpoint, generated.headers, '') },
        ...(cControl !== undefined && getOne
          ? [{ label: "c'", server: cControl.server, request: requestFor(endpoint, cControl.headers, '') }]
          : []),
      ];
      const summaries = await measureTargets(targets, options.plan, log);
      log(`postgres path: ${endpoint.title}, the servers side by side`);
      const shared = await measureShared(targets, options.plan, log);
      results.push({ id, summaries, shared });
    }
    const lifetime = started.map((server) => `${server.name} ${formatMiB(server.lifetimePeakKib())} MiB`).join(', ');
    return postgresPathResult(results, options, { lifetime, version });
  } finally {
    await Promise.all(started.map((server) => server.stop()));
    await postgres.stop();
  }
}

export interface Measured {
  readonly id: EndpointId;
  readonly summaries: Summary[];
  readonly shared: SharedRounds;
}

const SERVER_NAMES: Readonly<Record<string, string>> = {
  b: 'b Koa + @koa/router + pg',
  "b'": "b' a second b process",
  c: 'c generated, DATABASE_URL=postgres://',
  "c'": "c' a second c process",
};

/** What the section ran on, as its notes print it. */
export interface PostgresPathRun {
  /** Peak RSS of each server, formatted. */
  readonly lifetime: string;
  /** The server's own SELECT version(). */
  readonly version: string;
}

/** The section's table and target from its measurements. */
export function postgresPathResult(
  results: readonly Measured[],
  options: BenchOptions,
  { lifetime, version }: PostgresPathRun,
): SectionResult {
  const rows: string[][] = [];
  const targets: TargetCheck[] = [];
  const checks: string[] = [];
  const invalid: string[] = [];
  for (const { id, summaries, shared } of results) {
    const side = (letter: 'b' | 'c') => [letter, `${letter}'`].filter((label) => shared.labels.includes(label));
    const cOverB = pairedRatio(shared, side('c'), side('b'));
    for (const summary of summaries) {
      if (summary.unexpected > 0)
        invalid.push(`${ENDPOINTS[id].title} ${summary.label}: ${summary.unexpected} unexpected responses`);
      rows.push([
        ENDPOINTS[id].title,
        SERVER_NAMES[summary.label] ?? summary.label,
        ...loadCells(summary),
        formatNumber(medianCpuPerRequestUs(shared, summary.label), 1),
        summary.label === 'c' ? formatPairedRatio(cOverB) : '',
      ]);
    }
    for (const letter of ['b', 'c'] as const) {
      if (!shared.labels.includes(`${letter}'`)) continue;
      const control = pairedRatio(shared, letter, `${letter}'`);
      checks.push(`${ENDPOINTS[id].title}: ${letter}/${letter}' = ${formatPairedRatio(control)}`);
    }
    if (!cOverB.valid) invalid.push(`${ENDPOINTS[id].title}: unexpected responses while the servers ran side by side`);
    if (id === 'get-one') {
      targets.push({
        name: 'postgres path: c/b for GET one',
        target: `>= ${GET_ONE_TARGET}`,
        figure: formatRatioAgainst(cOverB.median, GET_ONE_TARGET),
        verdict: cOverB.valid ? verdict(cOverB.median, GET_ONE_TARGET, 'at-least') : 'n/a',
      });
    }
  }
  const { warmupSeconds, rounds, durationSeconds, connections } = options.plan;
  const table: Table = {
    title: 'PostgreSQL path: the generated server and hand-written Koa + pg on one orders table',
    columns: [
      { title: 'endpoint' },
      { title: 'server' },
      ...LOAD_COLUMNS,
      { title: 'µs CPU/req side by side', align: 'right' },
      { title: 'c/b side by side', align: 'right' },
    ],
    rows,
    notes: [
      `Each server alone: ${connections} keep-alive connections, ${warmupSeconds} s warm-up, median of ${rounds} interleaved rounds of ${durationSeconds} s. Side by side: the servers loaded at once, ${rounds} rounds; c/b is how many requests c serves per CPU-second of its own process against b (the median of the rounds, lowest–highest); PostgreSQL's own CPU is counted for neither.`,
      `One PostgreSQL server, ${version} (fsync and synchronous commit on), one database: c made the orders table and seeded ${SEED_COUNT} rows, b reads and writes that same table. Both keep a pool of ${PEER_POOL.max} connections opened once and kept (min = max), and named prepared statements.`,
      `GET one: b' and c' are second processes of b and c, loaded with the others; the ratio compares the mean of each pair. Method check: ${checks.length === 0 ? 'not measured.' : `${checks.join('; ')}.`}`,
      'b is plain Koa, compact JSON, no auth or limits, one query per request; c has User-Agent, bearer auth (a token lookup every 500 ms per client), call limits counted in PostgreSQL (one upsert per batch of calls, see docs/several-instances.md), ETag and pretty print on.',
      `For comparison, c/b from the medians of the separate runs: ${results.map(({ id, summaries }) => `${ENDPOINTS[id].title} ${formatRatio(summaries.find((s) => s.label === 'c')!.requestsPerSecond / summaries.find((s) => s.label === 'b')!.requestsPerSecond)}`).join('; ')}.`,
      `Peak RSS over each server's whole life (VmHWM): ${lifetime}.`,
      ...invalid.map((line) => `(!) figures not comparable: ${line}`),
    ],
  };
  return { tables: [table], targets };
}
