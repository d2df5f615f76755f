import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../../support/start-api.ts';

/** Times are written with any ISO 8601 offset and stored and served in UTC with whole seconds. */
describe('times: any ISO 8601 offset in, UTC with whole seconds out', () => {
  let api: TestApi;
  let pet: number;

  beforeAll(async () => {
    api = await startApi();
    pet = (await api.post('/v1/pets', { pet_name: 'Rex' }).expect(201)).body.identity as number;
  });
  afterAll(async () => api?.close());

  it.each([
    ['+02:00', '2026-12-02T09:30:00+02:00', '2026-12-02T07:30:00Z'],
    ['-05:30 across midnight', '2026-12-02T21:00:00-05:30', '2026-12-03T02:30:00Z'],
    ['+0200 (basic offset)', '2026-12-02T09:30:00+0200', '2026-12-02T07:30:00Z'],
    ['+02 (hours only)', '2026-12-02T09:30:00+02', '2026-12-02T07:30:00Z'],
    ['Z with a fraction, which is dropped', '2026-12-02T09:30:15.987654Z', '2026-12-02T09:30:15Z'],
    ['minutes without seconds', '2026-12-02T09:30Z', '2026-12-02T09:30:00Z'],
    ['a year below 100, kept as written', '0050-06-01T12:00:00Z', '0050-06-01T12:00:00Z'],
    ['the first day of year 1 east of UTC, year 0 in UTC', '0001-01-01T00:30:00+01:00', '0000-12-31T23:30:00Z'],
  ])(
    '%s: stored and served as UTC, in the write answer, on GET, in the list and after PATCH',
    async (_name, written, served) => {
      const created = await api.post('/v2/visits', { pet, scheduled_at: written }).expect(201);
      const path = `/v2/visits/${String(created.body.identity)}`;
      expect((await api.get(path).expect(200)).body.scheduled_at).toBe(served);
      expect((await api.get(`/v1/visits/${String(created.body.identity)}`).expect(200)).body.scheduled_at).toBe(served);
      const listed = (await api.get('/v1/visits?limit=500').expect(200)).body as {
        visit_id: number;
        scheduled_at: string;
      }[];
      expect(listed.find((visit) => visit.visit_id === created.body.identity)?.scheduled_at).toBe(served);
      expect((await api.patch(path, { scheduled_at: written }).expect(200)).body.scheduled_at).toBe(served);
      expect((await api.put(path, { pet, scheduled_at: written }).expect(200)).body.scheduled_at).toBe(served);
    },
  );

  it.each([
    ['no offset (names no instant)', '2026-12-02T09:30:00'],
    ['a day that does not exist', '2026-02-30T09:30:00Z'],
    ['hour 24', '2026-12-02T24:00:00Z'],
    ['a date alone', '2026-12-02'],
    ['an offset past 23 hours', '2026-12-02T09:30:00+24:00'],
  ])('%s: 400 invalid_field naming the field', async (_name, written) => {
    const refused = await api.post('/v1/visits', { pet, scheduled_at: written }).expect(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'scheduled_at' });
  });

  it.each([
    ['a form that is no ISO 8601 time', '2026-12-02 09:30', /must be an ISO 8601 date and time with an offset/],
    ['a day that does not exist', '2026-02-30T09:30:00Z', /names no instant/],
    ['year 10000 once in UTC', '9999-12-31T23:59:59-01:00', /names no instant from year 0000 to 9999 in UTC/],
  ])('%s is told what is wrong with it', async (_name, written, message) => {
    const refused = await api.post('/v1/visits', { pet, scheduled_at: written }).expect(400);
    expect(refused.body.errors[0].message).toMatch(message);
  });

  it('server-set times have the same form (created_at)', async () => {
    const created = await api.post('/v1/visits', { pet, scheduled_at: '2026-12-02T09:30:00Z' }).expect(201);
    expect(created.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});
