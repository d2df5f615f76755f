import { join } from 'node:path';
import type { BenchOptions, EndpointId } from '../lib/options.ts';
import { ENDPOINTS, ORDER_BODY, requestFor } from '../lib/endpoints.ts';
import { requestHeaders, seed, startScript, UNBOUNDED_LIMITS } from '../lib/generated-server.ts';
import { loadCount } from '../lib/load.ts';
import { revalidationTag } from '../lib/memory-load.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { issueToken } from '../lib/token.ts';
import { callgrindAvailable, nodeArgumentsOf, startUnderCallgrind } from '../lib/callgrind.ts';
import { formatNumber } from '../lib/format.ts';
import { median } from '../lib/stats.ts';
import { ORDERS_SERVER_NAMES, ordersServerScript } from '../lib/orders-server.ts';
import type { Log, SectionResult } from '../lib/section.ts';
import { writeConventionHeadersFile } from '../lib/convention-headers-file.ts';

/** Requests of warm-up before counting (V8 has compiled the hot code well before them). */
const WARMUP_REQUESTS = 12_000;
/**
 * Windows of requests counted, each on its own: the figure is their median. A full collection of
 * the heap costs as much as some hundreds of requests and lands in one window or another, as it
 * happens; the median leaves out the window it landed in.
 */
const WINDOWS = 3;
const COUNTED_REQUESTS = 1_000;

interface Measured {
  readonly label: string;
  readonly perRequest: Readonly<Partial<Record<EndpointId, number>>>;
}

interface ServerPlan {
  readonly label: string;
  /** node's arguments after the executable (and the bench's source condition). */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Whether the server is the generated one (it needs a token of its own database). */
  readonly generated: boolean;
  /** Whether its GET one's headers are the ones the peers with c's bytes copy (the first server's). */
  readonly capturesHeaders?: boolean;
}

/**
 * Instructions per request (only with `--only instructions`, and where valgrind is installed): the
 * generated server, the same without its request line, b, f and o, and f and o sending c's response
 * headers and layout as constants (the conventions' bytes with none of the work that decides them),
 * each alone under callgrind, warmed up and then sent a fixed number of requests of each endpoint
 * named (default GET one). An instruction count moves with what the code does, not with what else
 * the machine runs (only with what each process's compiler decided, timed by the requests), so it
 * can show a change that CPU time per request on a shared machine cannot tell from the noise. It
 * leaves out the kernel (system calls, the loopback network) and what the caches and the branch
 * predictor make of the instructions.
 */
export async function instructions(options: BenchOptions, log: Log): Promise<SectionResult> {
  if (!callgrindAvailable()) {
    log('instructions: valgrind (callgrind) is not installed here: skipped');
    return { tables: [], targets: [] };
  }
  const endpoints = options.endpoints.length === 4 ? (['get-one'] as const) : options.endpoints;
  const dataDir = tempDir('instructions');
  const serverEnv = { PORT: '0', HOST: '127.0.0.1' };
  const generatedEnv = { ...serverEnv, ...UNBOUNDED_LIMITS };
  const generatedArgs = nodeArgumentsOf(startScript(REPO_ROOT));
  const headersFile = join(dataDir, 'convention-headers.json');
  const plans: ServerPlan[] = [
    { label: 'c generated', args: generatedArgs, env: generatedEnv, generated: true, capturesHeaders: true },
    {
      label: 'c without its request line (LOG_LEVEL=warn)',
      args: generatedArgs,
      env: { ...generatedEnv, LOG_LEVEL: 'warn' },
      generated: true,
    },
    ...(['b', 'f', 'o'] as const).map((peer) => ({
      label: ORDERS_SERVER_NAMES[peer],
      args: [ordersServerScript(peer)],
      env: { ...serverEnv, GZIP: '0' },
      generated: false,
    })),
    ...(['f', 'o'] as const).map((peer) => ({
      label: `${ORDERS_SERVER_NAMES[peer]}, sending c's headers and pretty JSON as constants`,
      args: [ordersServerScript(peer)],
      env: { ...serverEnv, GZIP: '0', CONVENTION_HEADERS_FILE: headersFile },
      generated: false,
    })),
  ];
  const results: Measured[] = [];
  for (const [index, plan] of plans.entries()) {
    const name = `server-${index}`;
    const databaseUrl = `sqlite:${join(dataDir, `${name}.db`)}`;
    log(
      `instructions: ${plan.label} under callgrind (${WARMUP_REQUESTS} requests of warm-up, then ${WINDOWS} windows of ${COUNTED_REQUESTS} counted)`,
    );
    const server = await startUnderCallgrind(name, plan.args, {
      env: { ...process.env, ...plan.env, DATABASE_URL: databaseUrl, DATABASE_PATH: join(dataDir, `${name}.peer.db`) },
      cwd: REPO_ROOT,
      dataDir,
    });
    try {
      const headers = requestHeaders(`Bearer ${plan.generated ? issueToken(databaseUrl) : 'none'}`);
      await seed(server.url, '/v1/orders', headers, ORDER_BODY, 25);
      if (plan.capturesHeaders === true) await writeConventionHeadersFile(server.url, headers, headersFile);
      // The peers send an ETag only to a revalidating request (see servers/koa-sqlite.ts); ask for it that way.
      const etag = await revalidationTag({ url: server.url, name: plan.label }, headers);
      const perRequest: Partial<Record<EndpointId, number>> = {};
      for (const id of endpoints) {
        const request = requestFor(ENDPOINTS[id], headers, etag);
        await loadCount(server.url, request, { connections: options.plan.connections, amount: WARMUP_REQUESTS });
        const windows: number[] = [];
        for (let window = 0; window < WINDOWS; window += 1) {
          server.zero();
          const answered = await loadCount(server.url, request, {
            connections: options.plan.connections,
            amount: COUNTED_REQUESTS,
          });
          const executed = server.count();
          if (answered.unexpected > 0)
            throw new Error(`${plan.label}: ${answered.unexpected} unexpected answers to ${id}`);
          windows.push(executed / answered.expected);
        }
        perRequest[id] = median(windows);
      }
      results.push({ label: plan.label, perRequest });
    } finally {
      await server.stop();
    }
  }
  const generated = results[0]!;
  return {
    tables: [
      {
        title: 'Instructions per request, each server alone under callgrind (user space, every thread)',
        columns: [
          { title: 'server' },
          ...endpoints.flatMap((id) => [
            { title: `${ENDPOINTS[id].title}: instructions`, align: 'right' as const },
            { title: `c/server`, align: 'right' as const },
          ]),
        ],
        rows: results.map(({ label, perRequest }) => [
          label,
          ...endpoints.flatMap((id) => [
            formatNumber(perRequest[id]!),
            // As the request path's ratios: above 1, c does less for the same request.
            formatNumber(perRequest[id]! / generated.perRequest[id]!, 2),
          ]),
        ]),
        notes: [
          `Each server started on its own under valgrind's callgrind, seeded with 25 orders through its own POST, sent ${WARMUP_REQUESTS} requests of each endpoint to warm up (V8 has compiled its hot code by then), then ${WINDOWS} windows of ${COUNTED_REQUESTS} more over ${options.plan.connections} connections, each counted on its own. The figure is the median of the windows' instructions per request answered, every thread of the process (a full collection of the heap lands in one window or another).`,
          "The rows sending c's headers: f and o given the headers c sent for GET one in this run (captured from it after seeding, less those Node writes itself: Content-Type and Content-Length, Date, Connection, Keep-Alive), which they send as constants on GET one and on the 304, with GET one's JSON pretty-printed as c lays it out (bench/servers/convention-headers.ts): the conventions' bytes on each peer, with none of the work that decides them (authentication, limits, tags, the request line).",
          "The servers run as node with the arguments their start command gives it, and V8's --single-threaded (valgrind runs one thread at a time: background compilation would land at a different moment on every run); the generated server without the start script's allocator launcher (glibc's malloc, as the peers use).",
          "User-space instructions only: the system calls and the kernel's loopback network are left out, and so is how fast the CPU runs the instructions (its caches and branch predictor). So c/server here is not the request path's CPU ratio. From run to run of the same code, GET one's count moved by up to 7% for c and 3% for f, and by up to 19% for o: each process's compiler makes its own decisions, timed by the requests.",
        ],
      },
    ],
    targets: [],
  };
}
