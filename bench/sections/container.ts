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
import { SETTLE_MS } from './memory.ts';
import { memoryLimit } from '../lib/memory-limit.ts';
import type { Log, SectionResult } from '../lib/section.ts';
import type { RequestSpec } from '../lib/load.ts';

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
 * The mix's write besides POST: a PATCH of order 2, always to the same value (order 1 is the one the
 * 304 revalidates, and must keep its ETag).
 */
const PATCH_PATH = '/v1/orders/2';
const PATCH_BODY = '{"quantity":2}';

/**
 * The generated server in a 256 MiB container: started with the heap limit a user gives it there,
 * watched every 100 ms, under the request path's load and then a mix of 200,000 requests at
 * concurrency 50 (GET one, a list of 20, a 304, a POST and a PATCH in turn on every connection). It passes
 * when it is still running at the end, never held more than 256 MiB resident (where a container's
 * limit would have killed it), and answered every request as expected: no 5xx, no unanswered request.
 *
 * The limit is a cgroup's where systemd-run can make one (`systemd-run --scope -p MemoryMax=256M`):
 * then the kernel kills the server past it, as a container's runtime would. Where it cannot (no
 * systemd manager), the limit is watched: VmRSS, the figure a cgroup's limit counts first (it also
 * counts the page cache of written files, which VmRSS does not: SQLite's WAL writes here are small),
 * judged against 256 MiB. Either way the server runs with --max-old-space-size, and the table says
 * which limit the run had.
 */
export async function container(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('container');
  const limit = memoryLimit(CONTAINER_MIB);
  log(
    `256 MiB container: the generated server with --max-old-space-size=${CONTAINER_HEAP_MIB}; limit ${limit.description}`,
  );
  const generated = await startGenerated(REPO_ROOT, dataDir, 'container-c', {
    nodeArgs: [`--max-old-space-size=${CONTAINER_HEAP_MIB}`],
    ...(limit.kind === 'cgroup' ? { launcher: limit.command } : {}),
  });
  const { server, headers } = generated;
  try {
    await seed(server.url, '/v1/orders', headers, ORDER_BODY, SEED_COUNT);
    const requests = requestPathRequests(headers, await revalidationTag(server, headers));
    const patch: RequestSpec = {
      method: 'PATCH',
      path: PATCH_PATH,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: PATCH_BODY,
      expectStatus: 200,
    };
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
        phases.push([
          'mix',
          await mixedLoad(server.url, [...requests, patch], { connections: MIX_CONNECTIONS, amount }),
        ]);
        return combineOutcomes(phases.map(([, outcome]) => outcome));
      },
      { settleMs: SETTLE_MS, afterMs: options.afterSeconds * 1000 },
    );
    const limitKib = CONTAINER_MIB * 1024;
    const fits = profile.peakKib !== undefined && profile.peakKib <= limitKib;
    const answered = profile.outcome.unexpected + profile.outcome.failures === 0;
    // Killed by the cgroup, or above the watched limit where a container would have killed it.
    const oom = !profile.alive || !fits;
    const passed = !oom && answered;
    return {
      tables: [
        {
          title: `The generated server in a ${CONTAINER_MIB} MiB container (--max-old-space-size=${CONTAINER_HEAP_MIB}, limit ${limit.kind === 'cgroup' ? 'enforced by a cgroup' : 'watched'})`,
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
            `RSS: idle ${formatMiB(profile.idleKib)} MiB, peak ${formatMiB(profile.peakKib)} MiB (limit ${CONTAINER_MIB} MiB), ${options.afterSeconds} s after the load ${formatMiB(profile.afterKib)} MiB; the process ${profile.alive ? 'was still running at the end' : 'EXITED during the run'}.`,
            `request path: GET one, GET list of 20, If-None-Match -> 304 and POST in turn, ${secondsEach} s each over ${options.plan.connections} connections. mix: ${formatNumber(amount)} requests over ${MIX_CONNECTIONS} connections, each connection sending the same four and a PATCH of another order (${PATCH_PATH}, ${PATCH_BODY}) in turn.`,
            `The limit: ${limit.description}. VmRSS is sampled every 100 ms either way; a container would kill the server above ${CONTAINER_MIB} MiB. c runs with --max-old-space-size=${CONTAINER_HEAP_MIB}, the heap limit a user gives Node in such a container (half of it).`,
          ],
        },
      ],
      targets: [
        {
          name: `${CONTAINER_MIB} MiB container: OOM, peak RSS, 5xx, every request answered`,
          target: `no, <= ${CONTAINER_MIB} MiB, 0, all`,
          figure: `${oom ? 'yes' : 'no'}, ${formatMiB(profile.peakKib)} MiB, ${serverErrors(profile.outcome)}, ${profile.outcome.failures === 0 ? 'all' : `${profile.outcome.failures} not`}`,
          verdict: passed ? 'pass' : 'FAIL',
        },
      ],
    };
  } finally {
    await server.stop();
  }
}
