import type { BenchOptions } from '../lib/options.ts';
import { ORDER_BODY } from '../lib/endpoints.ts';
import { startGenerated, seed } from '../lib/generated-server.ts';
import { ORDERS_SERVER_NAMES, startOrdersServer, type OrdersServer } from '../lib/orders-server.ts';
import {
  loadInTurn,
  profileMemory,
  requestPathRequests,
  revalidationTag,
  serverErrors,
  type MemoryProfile,
} from '../lib/memory-load.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { formatMiB, formatNumber, formatRatioAgainst } from '../lib/format.ts';
import { verdict } from '../lib/stats.ts';
import type { ServerProcess } from '../lib/server-process.ts';
import type { Log, SectionResult, TargetCheck } from '../lib/section.ts';

const SEED_COUNT = 25;
/** Quiet time after start-up and seeding before the idle reading (the one after the load is --after). */
export const SETTLE_MS = 5_000;
/** c's resident set against Fastify's, idle and at its peak under the same load: at most this many times. */
const MEMORY_TARGET = 1.2;

const SERVER_NAMES: Readonly<Record<'c' | OrdersServer, string>> = { c: 'c generated', ...ORDERS_SERVER_NAMES };
const PEERS: readonly OrdersServer[] = ['b', 'f', 'o', 'j'];

/**
 * What each server of the request path holds in memory: its resident set idle after start-up and
 * seeding, its peak under the request path's load (its four requests in turn, without
 * compression), and --after seconds (30 by default) after that load, when a server that gives memory
 * back has done so. The servers are loaded at the same time, so that quiet is the same for every one.
 */
export async function memory(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('memory');
  const started: ServerProcess[] = [];
  try {
    log('memory: starting c, b, f, o and j');
    const generated = await startGenerated(REPO_ROOT, dataDir, 'memory-c');
    started.push(generated.server);
    await seed(generated.server.url, '/v1/orders', generated.headers, ORDER_BODY, SEED_COUNT);
    const servers: [keyof typeof SERVER_NAMES, ServerProcess][] = [['c', generated.server]];
    for (const peer of PEERS) {
      const server = await startOrdersServer(peer, dataDir, {
        gzip: false,
        name: `memory-${peer}`,
        seedCount: SEED_COUNT,
        headers: generated.headers,
      });
      started.push(server);
      servers.push([peer, server]);
    }
    const secondsEach = options.plan.durationSeconds * options.plan.rounds;
    log(
      `memory: the request path's four requests in turn, ${secondsEach} s each, every server at once; then ${options.afterSeconds} s of quiet`,
    );
    const profiles = await Promise.all(
      servers.map(async ([letter, server]) => {
        const requests = requestPathRequests(generated.headers, await revalidationTag(server, generated.headers));
        const profile = await profileMemory(
          server,
          () => loadInTurn(server.url, requests, { connections: options.plan.connections, secondsEach }),
          { settleMs: SETTLE_MS, afterMs: options.afterSeconds * 1000 },
        );
        return [letter, profile] as const;
      }),
    );
    return memoryResult(profiles, options, secondsEach);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

/** The memory table and its two targets (c against f, idle and at the peak). */
export function memoryResult(
  profiles: readonly (readonly [keyof typeof SERVER_NAMES, MemoryProfile])[],
  options: BenchOptions,
  secondsEach: number,
): SectionResult {
  const byLetter = new Map(profiles);
  const c = byLetter.get('c');
  const f = byLetter.get('f');
  const invalid = profiles.filter(
    ([, profile]) => profile.outcome.unexpected + profile.outcome.failures > 0 || !profile.alive,
  );
  const target = (what: string, of: (profile: MemoryProfile) => number | undefined): TargetCheck => {
    const ratio = c === undefined || f === undefined ? Number.NaN : (of(c) ?? Number.NaN) / (of(f) ?? Number.NaN);
    const comparable = Number.isFinite(ratio) && invalid.length === 0;
    return {
      name: `memory: c/f ${what} RSS`,
      target: `<= ${MEMORY_TARGET}`,
      figure: formatRatioAgainst(ratio, MEMORY_TARGET),
      verdict: comparable ? verdict(ratio, MEMORY_TARGET, 'at-most') : 'n/a',
    };
  };
  return {
    tables: [
      {
        title: "Memory: resident set idle, at the peak of the request path's load, and after it",
        columns: [
          { title: 'server' },
          { title: 'idle RSS MiB', align: 'right' },
          { title: 'peak RSS MiB', align: 'right' },
          { title: `RSS ${options.afterSeconds} s after MiB`, align: 'right' },
          { title: 'responses', align: 'right' },
          { title: 'peak / f', align: 'right' },
        ],
        rows: profiles.map(([letter, profile]) => [
          SERVER_NAMES[letter],
          formatMiB(profile.idleKib),
          formatMiB(profile.peakKib),
          formatMiB(profile.afterKib),
          formatNumber(profile.outcome.responses),
          f?.peakKib === undefined || profile.peakKib === undefined
            ? '-'
            : formatNumber(profile.peakKib / f.peakKib, 2),
        ]),
        notes: [
          `VmRSS from /proc/<pid>/status. idle: ${SETTLE_MS / 1000} s after start-up and seeding ${SEED_COUNT} orders through each server's own POST. peak: the largest value sampled every 100 ms under the load: GET one, GET list of 20, If-None-Match -> 304 and POST in turn, ${secondsEach} s each over ${options.plan.connections} keep-alive connections, without compression. after: ${options.afterSeconds} s after the load ended, with no request meanwhile.`,
          `Every server is loaded at the same time, on the CPU the servers share (as side by side in the request path), so each one meets the same machine and the same ${options.afterSeconds} s of quiet after it.`,
          "The servers are the request path's (c on a fresh SQLite file with every convention on; b, f, o and j as described there).",
          `Targets: c's idle and peak RSS at most ${MEMORY_TARGET}x Fastify's.`,
          ...invalid.map(
            ([letter, profile]) =>
              `(!) ${SERVER_NAMES[letter]}: ${profile.alive ? '' : 'exited during the run; '}${profile.outcome.unexpected} unexpected statuses, ${serverErrors(profile.outcome)} of them 5xx, ${profile.outcome.failures} requests unanswered: ${JSON.stringify(profile.outcome.statuses)}`,
          ),
        ],
      },
    ],
    targets: [target('idle', (profile) => profile.idleKib), target('peak', (profile) => profile.peakKib)],
  };
}
