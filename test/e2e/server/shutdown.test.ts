import { request as httpRequest } from 'node:http';
import { newTestDatabase } from '../../support/test-database.ts';
import { describe, expect, it } from 'vitest';
import { spawnServer } from '../../support/spawn-server.ts';
import { issueToken } from '../../support/token-cli.ts';

const headers = { 'User-Agent': 'shutdown-test', Accept: 'application/json' };

describe('npm start process', () => {
  it('prints one listening line, finishes in-flight requests on SIGTERM, refuses new ones with 503, exits 0', async () => {
    const databaseUrl = await newTestDatabase();
    const token = issueToken(databaseUrl, 'shutdown-test');
    const bearer = () => ({ Authorization: `Bearer ${token}` });
    const server = await spawnServer({ DATABASE_URL: databaseUrl });
    expect(server.output.filter((line) => line.startsWith('listening on'))).toHaveLength(1);
    const url = new URL('/v1/orders', server.url);
    const body = JSON.stringify({ item: 'slow', quantity: 1 });

    // A request in flight: its body arrives in two parts, the second after SIGTERM.
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...bearer() },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(async () => {
          const late = await fetch(new URL('/v1/orders', server.url), { headers: { ...headers, ...bearer() } });
          lateStatus = late.status;
          lateBody = (await late.json()) as { errors: { code: string }[] };
          req.end(body.slice(5));
        }, 200);
      }, 200);
    });
    let lateStatus = 0;
    let lateBody: { errors: { code: string }[] } | undefined;

    const finished = await inFlight;
    expect(finished.status).toBe(201);
    expect(lateStatus).toBe(503);
    expect(lateBody?.errors[0]?.code).toBe('service_unavailable');
    expect(await server.exited).toBe(0);
  });
});
