import { expect } from 'vitest';
import { spawnNpmStart, spawnServer, type SpawnedServer } from './spawn-server.ts';
import { newTestDatabase } from './test-database.ts';
import { issueToken } from './token-cli.ts';

export interface ServerWithLargeVisits {
  readonly server: SpawnedServer;
  /** User-Agent, JSON and a bearer token of the server's own store. */
  readonly headers: Record<string, string>;
}

/**
 * A server of its own on a new database (spawned, so its memory can be read) holding one pet and
 * `rows` visits whose reports are `rowBytes` long (the field declares maxLength 1,000,000), written
 * `together` at a time. With `npmStart` it is started by `npm start`, as an operator starts it, with
 * what that command sets before the process starts.
 */
export async function serveLargeVisits({
  rows,
  rowBytes,
  together = 1,
  env = {},
  npmStart = false,
}: {
  readonly rows: number;
  readonly rowBytes: number;
  readonly together?: number;
  readonly env?: Record<string, string>;
  readonly npmStart?: boolean;
}): Promise<ServerWithLargeVisits> {
  const databaseUrl = await newTestDatabase();
  const settings = { DATABASE_URL: databaseUrl, JOB_WORKERS: '0', RATE_LIMIT_RESOURCE: '1000000/60', ...env };
  const server = await (npmStart ? spawnNpmStart(settings) : spawnServer(settings));
  const headers = {
    'User-Agent': 'large-visits',
    'Content-Type': 'application/json',
    Authorization: `Bearer ${issueToken(databaseUrl, 'large-visits')}`,
  };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    await response.arrayBuffer();
  };
  await post('/v1/pets', { pet_name: 'Rex' });
  for (let row = 0; row < rows; row += together)
    await Promise.all(
      Array.from({ length: Math.min(together, rows - row) }, (_, offset) =>
        post('/v1/visits', {
          pet: 1,
          scheduled_at: '2026-12-02T09:30:00Z',
          report: `${row + offset}:${'x'.repeat(rowBytes)}`,
        }),
      ),
    );
  return { server, headers };
}

/** Follows `Link: next` from `first` to the end; each page's body to `onPage`. */
export async function readEveryPage(
  first: string,
  headers: Record<string, string>,
  onPage: (body: ArrayBuffer) => void = () => {},
): Promise<void> {
  let next: string | undefined = first;
  while (next !== undefined) {
    const response: Response = await fetch(next, { headers });
    expect(response.status).toBe(200);
    onPage(await response.arrayBuffer());
    next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
}
