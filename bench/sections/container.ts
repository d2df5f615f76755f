import type { BenchOptions } from '../lib/options.ts';
import { ORDER_BODY } from '../lib/endpoints.ts';
import { startGenerated, seed } from '../lib/generated-server.ts';
import {
  combineOutcomes,
  loadInTurn,
  mixedLoad,
  profileMemory,
  requestPathRequests,
  revalidationTag,
  serverErrors,
  type LoadOutcome,
} from '../lib/memory-load.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { formatMiB, formatNumber } from '../lib/format.ts';
import { AFTER_MS, SETTLE_MS } from './memory.ts';
import type { Log, SectionResult } from '../lib/section.ts';

/** The container's memory limit. */
export const CONTAINER_MIB = 256;
/**
 * The V8 heap limit c runs with (`--max-old-space-size`), as a user sets it for such a container:
 * half of the limit, the other half left to the search thread's heap, code, SQLite's page cache
 * and the sockets' buffers.
 */
export const CONTAINER_HEAP_MIB = 128;
/** The mix's size and concurrency (a tenth with --quick). */
const MIX_REQUESTS = 200_000;
const MIX_CONNECTIONS = 50;
const SEED_COUNT = 25;

/**
 * The generated server in a 256 MiB container: started with the heap limit a user gives it there,
 * watched every 100 ms, under the request path's load and then a mix of 200,000 requests at
 * concurrency 50 (GET one, a list of 20, a 304 and a POST in turn on every connection). It passes
 * when it is still running at the end, never held more than 256 MiB resident (where a container's
 * limit would have killed it), and answered every request as expected: no 5xx, no unanswered request.
 *
 * The limit is watched, not enforced: a cgroup would need systemd (systemd-run -p MemoryMax) or
 * write access to the cgroup tree, which the bench does not assume. The watch samples VmRSS, the
 * figure a cgroup's limit counts first (it counts the page cache of written files too, which VmRSS
 * does not: SQLite's WAL writes here are small).
 */
export async function container(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('container');
  log(`256 MiB container: the generated server with --max-old-space-size=${CONTAINER_HEAP_MIB}`);
  const generated = await startGenerated(REPO_ROOT, dataDir, 'container-c', {
    nodeArgs: [`--max-old-space-size=${CONTAINER_HEAP_MIB}`],
  });
  const { server, headers } = generated;
  try {
    await seed(server.url, '/v1/orders', headers, ORDER_BODY, SEED_COUNT);
    const requests = requestPathRequests(headers, await revalidationTag(server, headers));
    const secondsEach = options.plan.durationSeconds * options.plan.rounds;
    const amount = options.plan.rounds >= 5 ? MIX_REQUESTS : MIX_REQUESTS / 10;
    const phases: [string, LoadOutcome][] = [];
    const profile = await profileMemory(
      server,
      async () => {
        log(`256 MiB container: the request path's four requests in turn, ${secondsEach} s each`);
        phases.push([
          'request path',
          await loadInTurn(server.url, requests, { connections: options.plan.connections, secondsEach }),
        ]);
        log(`256 MiB container: ${formatNumber(amount)} mixed requests at concurrency ${MIX_CONNECTIONS}`);
        phases.push(['mix', await mixedLoad(server.url, requests, { connections: MIX_CONNECTIONS, amount })]);
        return combineOutcomes(phases.map(([, outcome]) => outcome));
      },
      { settleMs: SETTLE_MS, afterMs: AFTER_MS },
    );
    const limitKib = CONTAINER_MIB * 1024;
    const fits = profile.peakKib !== undefined && profile.peakKib <= limitKib;
    const answered = profile.outcome.unexpected + profile.outcome.failures === 0;
    const passed = profile.alive && fits && answered;
    return {
      tables: [
        {
          title: `The generated server in a ${CONTAINER_MIB} MiB container (--max-old-space-size=${CONTAINER_HEAP_MIB}, resident set watched)`,
          columns: [
            { title: 'load' },
            { title: 'responses', align: 'right' },
            { title: 'statuses' },
            { title: '5xx', align: 'right' },
            { title: 'unanswered', align: 'right' },
          ],
          rows: phases.map(([name, outcome]) => [
            name,
            formatNumber(outcome.responses),
            JSON.stringify(outcome.statuses),
            formatNumber(serverErrors(outcome)),
            formatNumber(outcome.failures),
          ]),
          notes: [
            `RSS: idle ${formatMiB(profile.idleKib)} MiB, peak ${formatMiB(profile.peakKib)} MiB (limit ${CONTAINER_MIB} MiB), ${AFTER_MS / 1000} s after the load ${formatMiB(profile.afterKib)} MiB; the process ${profile.alive ? 'was still running at the end' : 'EXITED during the run'}.`,
            `request path: GET one, GET list of 20, If-None-Match -> 304 and POST in turn, ${secondsEach} s each over ${options.plan.connections} connections. mix: ${formatNumber(amount)} requests over ${MIX_CONNECTIONS} connections, each connection sending the same four in turn.`,
            `The limit is watched, not enforced: VmRSS sampled every 100 ms; a container would have killed the server above ${CONTAINER_MIB} MiB. c runs with --max-old-space-size=${CONTAINER_HEAP_MIB}, the heap limit a user gives Node in such a container (half of it).`,
          ],
        },
      ],
      targets: [
        {
          name: `${CONTAINER_MIB} MiB container: peak RSS, no 5xx, every request answered`,
          target: `<= ${CONTAINER_MIB} MiB, 0, all`,
          figure: `${formatMiB(profile.peakKib)} MiB, ${serverErrors(profile.outcome)}, ${profile.outcome.failures === 0 ? 'all' : `${profile.outcome.failures} not`}`,
          verdict: passed ? 'pass' : 'FAIL',
        },
      ],
    };
  } finally {
    await server.stop();
  }
}
