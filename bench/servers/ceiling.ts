import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { replayKey, type CapturedResponse } from './replay-key.ts';

/**
 * The ceiling: node:http answering every benchmarked request with the bytes the generated server sent
 * for it (captured once, gzip variants already compressed), no parsing, storage or serialisation.
 * Nothing can answer the same bytes faster on this machine with Node.
 *
 * env: REPLAY_FILE (JSON array of CapturedResponse), PORT (0 = any free port), HOST.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

const responses = new Map(
  (JSON.parse(readFileSync(process.env.REPLAY_FILE!, 'utf8')) as CapturedResponse[]).map((captured) => {
    const body = Buffer.from(captured.bodyBase64, 'base64');
    const headers: Record<string, string> = {};
    for (const [name, value] of captured.headers) if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
    headers['Content-Length'] = String(body.length);
    return [captured.key, { status: captured.status, headers, body }] as const;
  }),
);

const server = createServer((req, res) => {
  // Read the request body to its end first, as any real handler of a POST must.
  req.resume();
  req.on('end', () => {
    const revalidation = req.headers['if-none-match'] !== undefined;
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const found = responses.get(replayKey(req.method ?? 'GET', req.url ?? '/', revalidation, gzip));
    if (found === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no captured response\n');
      return;
    }
    res.writeHead(found.status, found.headers).end(found.body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  console.log(`listening on http://${process.env.HOST ?? '127.0.0.1'}:${port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
