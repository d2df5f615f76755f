import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchOptions, EndpointId } from '../lib/options.ts';
import { ENDPOINTS, ORDER_BODY, requestFor } from '../lib/endpoints.ts';
import { measureTargets, type Summary, type Target } from '../lib/rounds.ts';
import {
  formatPairedRatio,
  measureShared,
  medianCpuPerRequestUs,
  pairedRatio,
  type PairedRatio,
  type SharedRounds,
} from '../lib/shared-rounds.ts';
import { startServer, type ServerProcess } from '../lib/server-process.ts';
import { startGenerated, seed } from '../lib/generated-server.ts';
import { startOrdersServer, type OrdersServer } from '../lib/orders-server.ts';
import { expectStatus } from '../lib/raw-request.ts';
import { revalidationTag } from '../lib/memory-load.ts';
import { REPO_ROOT, repoPath } from '../lib/paths.ts';
import { tempDir } from '../lib/temp.ts';
import { verdict } from '../lib/stats.ts';
import { formatMiB, formatNumber, formatRatio, formatRatioAgainst } from '../lib/format.ts';
import { LOAD_COLUMNS, loadCells } from '../lib/load-cells.ts';
import { PEER_GZIP_NOTE } from '../servers/peer-settings.ts';
import type { Table } from '../lib/table.ts';
import type { Log, SectionResult, TargetCheck } from '../lib/section.ts';
import { replayKey, type CapturedResponse } from '../servers/replay-key.ts';
import { writeConventionHeadersFile } from '../lib/convention-headers-file.ts';

const SEED_COUNT = 25;
/**
 * The request path's targets, without compression: the least c/peer ratio (requests per CPU-second, side by
 * side) per endpoint. c at least as cheap as the hand-written Koa server on every endpoint (the older
 * c/b >= 0.85 for GET one and 0.9 for a list and a POST are weaker forms of it).
 */
const TARGETS: Readonly<Record<EndpointId, Partial<Record<Peer, number>>>> = {
  'get-one': { b: 1.0, f: 0.9, o: 0.75, j: 1.0 },
  'get-list': { b: 1.0, f: 0.9, o: 0.75, j: 1.0 },
  revalidate: { b: 1.0, f: 0.9, o: 0.75, j: 1.0 },
  post: { b: 1.0, j: 1.0 },
};
/**
 * How far from 1 a method check (two processes of the same server side by side) may land before the
 * figures are flagged: identical processes differ by a few percent as a rule; past a tenth, a ratio
 * carries as much of one process's difference as of the servers' code.
 */
const CONTROL_TOLERANCE = 0.1;

type Encoding = 'identity' | 'gzip';
/** The servers c is compared with, each in a ratio column of its own. */
const PEERS = ['a', 'b', 'f', 'o', 'j'] as const;
type Peer = (typeof PEERS)[number];

/** The servers for one encoding, and the ETag each gives /v1/orders/1 (for revalidation). */
interface Contenders {
  readonly encoding: Encoding;
  readonly a: ServerProcess;
  readonly b: ServerProcess;
  readonly c: ServerProcess;
  readonly f: ServerProcess;
  readonly o: ServerProcess;
  readonly j: ServerProcess;
  readonly etags: {
    readonly a: string;
    readonly b: string;
    readonly c: string;
    readonly f: string;
    readonly o: string;
    readonly j: string;
  };
}

/**
 * The generated server (c) against node:http replaying its bytes (a) and
 * a hand-written Koa + node:sqlite server (b), per endpoint, without and with gzip.
 */
export async function requestPath(options: BenchOptions, log: Log): Promise<SectionResult> {
  const dataDir = tempDir('request-path');
  log('request path: starting the generated server and the baselines');
  const generated = await startGenerated(REPO_ROOT, dataDir, 'generated');
  const headers = generated.headers;
  const encodings: Encoding[] = options.gzip ? ['identity', 'gzip'] : ['identity'];
  const withEncoding = (encoding: Encoding): Record<string, string> =>
    encoding === 'gzip' ? { ...headers, 'Accept-Encoding': 'gzip' } : { ...headers };
  const started: ServerProcess[] = [generated.server];
  try {
    const c = generated.server;
    await seed(c.url, '/v1/orders', headers, ORDER_BODY, SEED_COUNT);
    const ordersServer = async (server: OrdersServer, encoding: Encoding, name?: string) => {
      const process = await startOrdersServer(server, dataDir, {
        gzip: encoding === 'gzip',
        seedCount: SEED_COUNT,
        headers,
        ...(name === undefined ? {} : { name }),
      });
      started.push(process);
      return process;
    };
    const bServers = new Map<Encoding, ServerProcess>();
    for (const encoding of encodings) bServers.set(encoding, await ordersServer('b', encoding));
    const peerServers = new Map<Encoding, { f: ServerProcess; o: ServerProcess; j: ServerProcess }>();
    for (const encoding of encodings)
      peerServers.set(encoding, {
        f: await ordersServer('f', encoding),
        o: await ordersServer('o', encoding),
        j: await ordersServer('j', encoding),
      });
    // b′, c′, f′ and o′: a second process of b, c, f and o, measured beside the others on GET one. Two
    // processes of the same code differ in CPU time per request (by a few percent as a rule, by up to a
    // fifth among GET one's thirteen servers), and each keeps its difference round after round: b/b′,
    // c/c′, f/f′ and o/o′ show by how much, and GET one's ratios compare the mean of each pair, so no
    // single process's difference decides a target.
    const twins = options.endpoints.includes('get-one');
    const bControl = twins ? await ordersServer('b', 'identity', 'koa-sqlite-identity-control') : undefined;
    const fControl = twins ? await ordersServer('f', 'identity', 'fastify-sqlite-identity-control') : undefined;
    const oControl = twins ? await ordersServer('o', 'identity', 'hono-sqlite-identity-control') : undefined;
    const cControl = twins ? await startGenerated(REPO_ROOT, dataDir, 'generated-control') : undefined;
    if (cControl !== undefined) {
      started.push(cControl.server);
      await seed(cControl.server.url, '/v1/orders', cControl.headers, ORDER_BODY, SEED_COUNT);
    }

    // The ceiling replays what c answers, captured now (after seeding, so the list holds 20 items).
    const cTags = new Map<Encoding, string>();
    const captured: CapturedResponse[] = [];
    for (const encoding of encodings) {
      const tag = (
        await expectStatus(
          c.url,
          { method: 'GET', path: ENDPOINTS['get-one'].path, headers: withEncoding(encoding) },
          200,
        )
      ).header('ETag');
      if (tag === undefined) throw new Error('the generated server sent no ETag for GET /v1/orders/1');
      cTags.set(encoding, tag);
      for (const id of options.endpoints) {
        const endpoint = ENDPOINTS[id];
        const request = requestFor(endpoint, withEncoding(encoding), tag);
        const response = await expectStatus(c.url, request, endpoint.expectStatus);
        captured.push({
          key: replayKey(endpoint.method, endpoint.path, endpoint.revalidates, encoding === 'gzip'),
          status: response.status,
          headers: response.headers,
          bodyBase64: response.body.toString('base64'),
        });
      }
    }
    const replayFile = join(dataDir, 'replay.json');
    writeFileSync(replayFile, JSON.stringify(captured));
    // h, fh and oh: b, f and o sending c's GET one headers as constants, with c's pretty layout (see
    // servers/convention-headers.ts); h on GET one, fh and oh on GET one and the 304 (b's copy answers GET one only).
    // (GET one is among fh's and oh's endpoints: whenever h runs, they do.)
    const bytesOnPeers = options.endpoints.some((id) => WITH_BYTES_ON_PEERS.has(id));
    const headersFile = join(dataDir, 'convention-headers.json');
    if (bytesOnPeers) await writeConventionHeadersFile(c.url, headers, headersFile);
    const withBytes = (server: OrdersServer, name: string) =>
      startWithConventionHeaders(server, name, { dataDir, headers, started, headersFile });
    const h = options.endpoints.includes('get-one') ? await withBytes('b', 'koa-sqlite-headers') : undefined;
    const fh = bytesOnPeers ? await withBytes('f', 'fastify-sqlite-headers') : undefined;
    const oh = bytesOnPeers ? await withBytes('o', 'hono-sqlite-headers') : undefined;
    const peerBytesTags = {
      fh: fh === undefined ? '' : await revalidationTag(fh, withEncoding('identity')),
      oh: oh === undefined ? '' : await revalidationTag(oh, withEncoding('identity')),
    };
    const a = await startServer({
      name: 'ceiling',
      args: [repoPath('bench', 'servers', 'ceiling.ts')],
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', REPLAY_FILE: replayFile },
    });
    started.push(a);

    const contenders: Contenders[] = [];
    for (const encoding of encodings) {
      const b = bServers.get(encoding)!;
      const { f, o, j } = peerServers.get(encoding)!;
      // b, f and o send an ETag only to a revalidating request (see servers/koa-sqlite.ts); ask for it that way.
      const tagOf = (server: ServerProcess) => revalidationTag(server, withEncoding(encoding));
      contenders.push({
        encoding,
        a,
        b,
        c,
        f,
        o,
        j,
        etags: {
          a: cTags.get(encoding)!,
          b: await tagOf(b),
          c: cTags.get(encoding)!,
          f: await tagOf(f),
          o: await tagOf(o),
          j: await tagOf(j),
        },
      });
    }

    const results: Measured[] = [];
    // POST last: it grows the tables, which must not change what the reads measured.
    for (const id of options.endpoints) {
      const endpoint = ENDPOINTS[id];
      log(`request path: ${endpoint.title}`);
      const targets: Target[] = contenders.flatMap(({ encoding, a, b, c, f, o, j, etags }) => {
        // h and the second processes are measured on GET one without compression only, fh and oh on
        // GET one and the 304 without compression.
        const getOneIdentity = id === 'get-one' && encoding === 'identity';
        const peerBytes = WITH_BYTES_ON_PEERS.has(id) && encoding === 'identity';
        /** fh or oh, where it runs and this is one of its endpoints. */
        const withPeerBytes = (letter: 'fh' | 'oh', server: ServerProcess | undefined): Target[] =>
          server !== undefined && peerBytes
            ? [
                {
                  label: `${letter} ${encoding}`,
                  server,
                  request: requestFor(endpoint, withEncoding(encoding), peerBytesTags[letter]),
                },
              ]
            : [];
        /** The second process of `letter`, when it runs and this is GET one without compression. */
        const secondOf = (
          letter: Twinned,
          server: ServerProcess | undefined,
          requestHeaders: Readonly<Record<string, string>>,
        ): Target[] =>
          server !== undefined && getOneIdentity
            ? [{ label: `${TWIN[letter]} ${encoding}`, server, request: requestFor(endpoint, requestHeaders, '') }]
            : [];
        return [
          { label: `a ${encoding}`, server: a, request: requestFor(endpoint, withEncoding(encoding), etags.a) },
          { label: `b ${encoding}`, server: b, request: requestFor(endpoint, withEncoding(encoding), etags.b) },
          ...secondOf('b', bControl, withEncoding(encoding)),
          ...(h !== undefined && getOneIdentity
            ? [{ label: `h ${encoding}`, server: h, request: requestFor(endpoint, withEncoding(encoding), '') }]
            : []),
          { label: `c ${encoding}`, server: c, request: requestFor(endpoint, withEncoding(encoding), etags.c) },
          // c′ answers only its own token.
          ...secondOf('c', cControl?.server, { ...cControl?.headers }),
          { label: `f ${encoding}`, server: f, request: requestFor(endpoint, withEncoding(encoding), etags.f) },
          ...secondOf('f', fControl, withEncoding(encoding)),
          ...withPeerBytes('fh', fh),
          { label: `o ${encoding}`, server: o, request: requestFor(endpoint, withEncoding(encoding), etags.o) },
          ...secondOf('o', oControl, withEncoding(encoding)),
          ...withPeerBytes('oh', oh),
          { label: `j ${encoding}`, server: j, request: requestFor(endpoint, withEncoding(encoding), etags.j) },
        ];
      });
      const summaries = await measureTargets(targets, options.plan, log);
      for (const encoding of encodings) {
        log(`request path: ${endpoint.title} ${encoding}, the servers side by side`);
        const shared = await measureShared(
          targets.filter((target) => target.label.endsWith(encoding)),
          options.plan,
          log,
        );
        results.push({
          id,
          encoding,
          summaries: summaries.filter((summary) => summary.label.endsWith(encoding)),
          shared,
        });
      }
    }
    const lifetime = started.map((server) => `${server.name} ${formatMiB(server.lifetimePeakKib())} MiB`).join(', ');
    return buildResult(results, options, lifetime);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

/** The labels of the second processes of b, c, f and o (GET one). */
const TWIN = { b: "b'", c: "c'", f: "f'", o: "o'" } as const;
type Twinned = keyof typeof TWIN;
const isTwinned = (letter: string): letter is Twinned => Object.hasOwn(TWIN, letter);

/** Every server's name in the table, in the order of its rows. */
const SERVER_NAMES = {
  a: 'a node:http (ceiling)',
  b: 'b Koa + @koa/router',
  [TWIN.b]: `${TWIN.b} a second b process`,
  h: "h b + c's headers, pretty",
  c: 'c generated',
  [TWIN.c]: `${TWIN.c} a second c process`,
  f: 'f Fastify 5 + node:sqlite',
  [TWIN.f]: `${TWIN.f} a second f process`,
  fh: "fh f + c's headers, pretty",
  o: 'o Hono 4 + node:sqlite',
  [TWIN.o]: `${TWIN.o} a second o process`,
  oh: "oh o + c's headers, pretty",
  j: 'j json-server 0.17',
} as const;
type Letter = keyof typeof SERVER_NAMES;

/** The endpoints on which f and o are also measured sending c's bytes (fh and oh). */
const WITH_BYTES_ON_PEERS: ReadonlySet<EndpointId> = new Set(['get-one', 'revalidate']);

/** b, f or o started with `CONVENTION_HEADERS_FILE`: c's GET one headers as constants, and c's pretty JSON. */
async function startWithConventionHeaders(
  server: OrdersServer,
  name: string,
  context: {
    readonly dataDir: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly started: ServerProcess[];
    readonly headersFile: string;
  },
): Promise<ServerProcess> {
  const { dataDir, headers, started, headersFile } = context;
  const peer = await startOrdersServer(server, dataDir, {
    gzip: false,
    name,
    seedCount: SEED_COUNT,
    headers,
    env: { CONVENTION_HEADERS_FILE: headersFile },
  });
  started.push(peer);
  return peer;
}

/** One endpoint and encoding: each server alone (requests/s, latency) and all of them side by side (ratios). */
interface Measured {
  readonly id: EndpointId;
  readonly encoding: Encoding;
  readonly summaries: Summary[];
  readonly shared: SharedRounds;
}

function buildResult(results: readonly Measured[], options: BenchOptions, lifetime: string): SectionResult {
  const rows: string[][] = [];
  const targets: TargetCheck[] = [];
  const floor: string[] = [];
  const invalid: string[] = [];
  const alone: string[] = [];
  const checks: string[] = [];
  // Whether some ratio had to be taken from requests/s (no CPU time to read, not Linux): the note says so.
  let fromThroughput = false;
  for (const { id, encoding, summaries, shared } of results) {
    // A server and, where measured, its second process: ratios compare the mean of the pair.
    const processesOf = (letter: Letter) =>
      [letter, ...(isTwinned(letter) ? [TWIN[letter]] : [])]
        .map((name) => `${name} ${encoding}`)
        .filter((label) => shared.labels.includes(label));
    const sideBySide = (top: Letter, bottom: Letter) => pairedRatio(shared, processesOf(top), processesOf(bottom));
    const ratios = Object.fromEntries(PEERS.map((peer) => [peer, sideBySide('c', peer)])) as Record<Peer, PairedRatio>;
    fromThroughput ||= Object.values(ratios).some((ratio) => ratio.basis === 'throughput');
    const pick = (letter: Letter) => summaries.find((summary) => summary.label.startsWith(`${letter} `));
    const [b, h, c] = [pick('b')!, pick('h'), pick('c')!];
    // h is measured for GET one (identity) only.
    const measured = (Object.keys(SERVER_NAMES) as Letter[]).flatMap((letter) => {
      const summary = pick(letter);
      return summary === undefined ? [] : [[letter, summary] as const];
    });
    if (h !== undefined) {
      floor.push(
        `GET one, side by side: h/b = ${formatPairedRatio(sideBySide('h', 'b'))} is what the conventions' bytes alone cost (b sending c's response headers, as constants, and pretty JSON); c/h = ${formatPairedRatio(sideBySide('c', 'h'))} is what the work that decides them costs (authentication, limits, negotiation, tags, routing, the middleware chain).`,
      );
    }
    for (const [peer, withBytes, name] of [
      ['f', 'fh', 'Fastify'],
      ['o', 'oh', 'Hono'],
    ] as const) {
      if (pick(withBytes) === undefined) continue;
      floor.push(
        `${ENDPOINTS[id].title}, side by side: ${withBytes}/${peer} = ${formatPairedRatio(sideBySide(withBytes, peer))} is what the conventions' bytes cost ${name}; c/${withBytes} = ${formatPairedRatio(sideBySide('c', withBytes))} is c against ${name} sending the same bytes with none of the work that decides them.`,
      );
    }
    for (const [letter, summary] of measured) {
      if (summary.unexpected > 0)
        invalid.push(`${ENDPOINTS[id].title} ${encoding} ${letter}: ${summary.unexpected} unexpected responses`);
      rows.push([
        ENDPOINTS[id].title,
        encoding,
        SERVER_NAMES[letter],
        ...loadCells(summary),
        formatNumber(medianCpuPerRequestUs(shared, `${letter} ${encoding}`), 1),
        ...PEERS.map((peer) => (letter === 'c' ? formatPairedRatio(ratios[peer]) : '')),
      ]);
    }
    alone.push(`${ENDPOINTS[id].title} ${encoding}: ${formatRatio(c.requestsPerSecond / b.requestsPerSecond)}`);
    for (const letter of Object.keys(TWIN) as Twinned[]) {
      const twin = TWIN[letter];
      if (!shared.labels.includes(`${twin} ${encoding}`)) continue;
      const control = pairedRatio(shared, `${letter} ${encoding}`, `${twin} ${encoding}`);
      const twinAlone = pick(twin);
      const single = pick(letter);
      const aloneRatio =
        twinAlone === undefined || single === undefined
          ? ''
          : ` (from the separate runs' medians: ${formatRatio(single.requestsPerSecond / twinAlone.requestsPerSecond)})`;
      checks.push(
        `${ENDPOINTS[id].title} ${encoding}: ${letter}/${twin} = ${formatPairedRatio(control)} side by side${aloneRatio}`,
      );
      if (!(Math.abs(control.median - 1) <= CONTROL_TOLERANCE))
        invalid.push(
          `${ENDPOINTS[id].title} ${encoding}: the method check ${letter}/${twin} is ${formatRatio(control.median)}, more than ${CONTROL_TOLERANCE} from 1`,
        );
    }
    if (encoding === 'identity') {
      for (const [peer, least] of Object.entries(TARGETS[id]) as [Peer, number][]) {
        const ratio = ratios[peer];
        const comparable = ratio.valid && c.unexpected + (pick(peer)?.unexpected ?? 0) === 0;
        targets.push({
          name: `request path: c/${peer} for ${ENDPOINTS[id].title}`,
          target: `>= ${least}`,
          figure: formatRatioAgainst(ratio.median, least),
          verdict: comparable ? verdict(ratio.median, least, 'at-least') : 'n/a',
        });
      }
      if (!PEERS.filter((peer) => peer !== 'a').every((peer) => ratios[peer].valid))
        invalid.push(`${ENDPOINTS[id].title} ${encoding}: unexpected responses while the servers ran side by side`);
    }
  }
  const { warmupSeconds, rounds, durationSeconds, connections } = options.plan;
  const table: Table = {
    title: 'Request path: requests/s (median of rounds), latency, peak RSS under load',
    columns: [
      { title: 'endpoint' },
      { title: 'encoding' },
      { title: 'server' },
      ...LOAD_COLUMNS,
      { title: 'µs CPU/req side by side', align: 'right' },
      ...PEERS.map((peer) => ({ title: `c/${peer} side by side`, align: 'right' as const })),
    ],
    rows,
    notes: [
      `Each server alone: ${connections} keep-alive connections, ${warmupSeconds} s warm-up, median of ${rounds} interleaved rounds of ${durationSeconds} s per server; p50 and p99 are medians over the rounds too.`,
      `Side by side: the servers of a row group loaded at once (${connections} connections each, on the CPU they share), ${rounds} rounds of ${durationSeconds} s, each server's CPU time (all its threads) read before and after every round. µs CPU/req: the median over the rounds of that CPU time per response. c/a and c/b: how many requests c serves per CPU-second against a and b (b's µs CPU/req over c's), per round; the median of the rounds, (lowest–highest)${fromThroughput ? "; * marks a ratio of requests/s, where the servers' CPU time could not be read" : ''}. The machine's slow and fast stretches land on every server of a round alike, and a server's CPU time per request does not depend on how the CPU or the load generator shared themselves out between the servers, which its requests/s does.`,
      `GET one, identity: b', c', f' and o' are second processes of b, c, f and o, measured with the others; there the ratios compare the mean µs CPU/req of each pair (c and c' against f and f', ...). Method check, two processes of the same code (1.00 with a perfect method; a few percent apart is where their memory landed): ${checks.length === 0 ? 'not measured (GET one not selected).' : `${checks.join('; ')}.`}`,
      'spread: (fastest − slowest round) / median; a large spread means the machine was busy with something else during some rounds.',
      `For comparison, c/b from the medians of the separate runs (requests/s column), which move with the spreads: ${alone.join('; ')}.`,
      'a replays the bytes c sent; b is plain Koa, compact JSON, no auth or limits; c has User-Agent, bearer auth, limits, ETag and pretty print on.',
      'f is Fastify 5 over node:sqlite as a speed-minded user writes it: JSON-schema validation of query, parameters and body (types coerced, unknown members dropped, not refused), schema-compiled compact JSON, an ETag only when revalidating; no auth, limits or User-Agent check. j is json-server 0.17 with its defaults (CORS, static files, no-cache, a weak ETag on every response, pretty JSON): no validation at all (any object is stored, created_at is not set), no auth or limits, and every write rewrites its whole JSON file. o is Hono 4 on @hono/node-server over node:sqlite as a speed-minded user writes it: the POST body validated with zod (unknown members refused), limit and offset read as b reads them, compact JSON through c.json, an ETag only when revalidating; no auth, limits or User-Agent check. c/f, c/o and c/j: as c/b, against f, o and j.',
      "h (GET one only) is b with c's response headers copied in as constants and c's pretty layout: the conventions' bytes without their logic. fh and oh (GET one and the 304) are f and o sending the same: the headers c sent for GET one as constants (their own ETag on the 304) and c's pretty JSON.",
      ...floor,
      `gzip: Accept-Encoding: gzip on every request; bodies under 1 KiB (GET one) are sent as they are by every server but o (below). ${PEER_GZIP_NOTE}`,
      `Peak RSS over each server's whole life (VmHWM): ${lifetime}.`,
      ...invalid.map((line) => `(!) figures not comparable: ${line}`),
    ],
  };
  return { tables: [table], targets };
}
