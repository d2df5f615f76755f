import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';
import { MAX_PAGE_BYTES } from '../../../runtime/resources/page-budget.ts';

/** A visit report as large as a body may carry (the field declares maxLength 1,000,000): each row is most of a megabyte. */
const LARGE = 900 * 1024;
const ROWS = 12;

describe('a list of large rows', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { JOB_WORKERS: '0' } });
    await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201);
    for (let index = 0; index < ROWS; index += 1) {
      await api
        .post('/v1/visits', { pet: 1, scheduled_at: '2026-12-02T09:30:00Z', report: `${index}:${'x'.repeat(LARGE)}` })
        .expect(201);
    }
  }, 60_000);
  afterAll(async () => api.close());

  it(`is served in pages of about ${MAX_PAGE_BYTES / 1024 / 1024} MiB, each cut short with Link: next continuing after its last row`, async () => {
    const seen: string[] = [];
    let path: string | undefined = '/v1/visits?limit=50';
    let pages = 0;
    while (path !== undefined) {
      const response: { headers: Record<string, string>; body: unknown; text: string } = await api
        .get(path)
        .expect(200);
      pages += 1;
      expect(response.headers['x-total-count']).toBe(String(ROWS));
      expect(Number(response.headers['content-length'] ?? Buffer.byteLength(response.text))).toBeLessThan(
        MAX_PAGE_BYTES + LARGE + 64 * 1024,
      );
      seen.push(
        ...(response.body as { report: string }[]).map((visit) => visit.report.slice(0, visit.report.indexOf(':'))),
      );
      const next: string | undefined = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
      path = next === undefined ? undefined : new URL(next).pathname + new URL(next).search;
      if (next !== undefined) expect(new URL(next).searchParams.get('offset')).toBe(String(seen.length));
    }
    expect(pages).toBeGreaterThan(1);
    // Every row once, in order, none skipped at a cut.
    expect(seen).toEqual(Array.from({ length: ROWS }, (_, index) => String(index)));
  }, 60_000);
});
