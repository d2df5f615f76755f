import { describe, expect, it } from 'vitest';
import { useCheckedApi } from '../../support/checked-client.ts';
import { expectErrorBody } from '../../support/error-body.ts';

/** A time `days` from now, in whole hours (ISO 8601 UTC). */
const inDays = (days: number, hours = 0) =>
  new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + (days * 24 + hours) * 3_600_000)
    .toISOString()
    .replace('.000Z', 'Z');

/**
 * The example's own operation below one reservation: POST /{v}/reservations/{id}/moves moves it (through
 * the reservation's update rule) and records the move in audits, in one transaction, then checks the
 * new slot is free; it answers the reservation as GET presents it. Every response is checked against
 * the OpenAPI document of its version.
 */
describe('an own operation below a resource: POST /{v}/reservations/{id}/moves', () => {
  const { send } = useCheckedApi();
  let room = 0;
  const freshRoom = () => `slot-room-${process.pid}-${(room += 1)}`;
  const reserve = async (values: { room: string; starts_at: string; ends_at: string }) => {
    const created = await send('post', '/v1/reservations', { guest_name: 'Ada', ...values });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.identity as number;
  };
  const moves = async (id: number) =>
    ((await send('get', '/v1/audits?action=moved&limit=500')).body as { summary: string }[]).filter((entry) =>
      entry.summary.startsWith(`reservation ${id}:`),
    );

  it.each([['v1'], ['v2']])(
    '%s: moves the reservation, records the move, and answers the reservation with its ETag',
    async (version) => {
      const id = await reserve({ room: freshRoom(), starts_at: inDays(5), ends_at: inDays(6) });
      const slot = { room: freshRoom(), starts_at: inDays(7), ends_at: inDays(8) };
      const moved = await send('post', `/${version}/reservations/${id}/moves`, slot);
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ reservation_id: id, guest_name: 'Ada', guest_key: 'ada', ...slot });
      const read = await send('get', `/${version}/reservations/${id}`);
      expect(read.body).toEqual(moved.body);
      expect(moved.headers.etag).toBeDefined();
      expect(moved.headers.etag).toBe(read.headers.etag);
      expect(await moves(id)).toHaveLength(1);
    },
  );

  it('X-Result-Fields: only the members asked for, with the whole resource’s ETag', async () => {
    const id = await reserve({ room: freshRoom(), starts_at: inDays(9), ends_at: inDays(10) });
    const slot = { room: freshRoom(), starts_at: inDays(11), ends_at: inDays(12) };
    const moved = await send('post', `/v1/reservations/${id}/moves`, slot, { 'X-Result-Fields': 'room,ends_at' });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ room: slot.room, ends_at: slot.ends_at });
    expect(moved.headers.etag).toBe((await send('get', `/v1/reservations/${id}`)).headers.etag);
  });

  it('a move into a taken slot: 409 room_taken after both writes, and neither the move nor its audit entry is kept', async () => {
    const taken = { room: freshRoom(), starts_at: inDays(13), ends_at: inDays(14) };
    await reserve(taken);
    const id = await reserve({ room: freshRoom(), starts_at: inDays(13), ends_at: inDays(14) });
    const before = (await send('get', `/v1/reservations/${id}`)).body;
    const refused = await send('post', `/v1/reservations/${id}/moves`, { ...taken, starts_at: inDays(13, 12) });
    expect(refused.status).toBe(409);
    expectErrorBody(refused, 'room_taken', 'starts_at');
    expect((await send('get', `/v1/reservations/${id}`)).body).toEqual(before);
    expect(await moves(id)).toEqual([]);
  });

  it("the move goes through the reservation's own update rule: ends before it starts -> 400 ends_before_start", async () => {
    const id = await reserve({ room: freshRoom(), starts_at: inDays(15), ends_at: inDays(16) });
    const refused = await send('post', `/v1/reservations/${id}/moves`, {
      room: freshRoom(),
      starts_at: inDays(17),
      ends_at: inDays(16),
    });
    expect(refused.status).toBe(400);
    expectErrorBody(refused, 'ends_before_start', 'ends_at');
    expect(await moves(id)).toEqual([]);
  });

  it('a reservation that does not exist: 404 with the body GET answers; a body member not declared: 400 unknown_field', async () => {
    const slot = { room: freshRoom(), starts_at: inDays(18), ends_at: inDays(19) };
    const missing = await send('post', '/v1/reservations/987654/moves', slot);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual((await send('get', '/v1/reservations/987654')).body);
    const id = await reserve({ room: freshRoom(), starts_at: inDays(18), ends_at: inDays(19) });
    const unknown = await send('post', `/v1/reservations/${id}/moves`, { ...slot, guest_name: 'Eve' });
    expect(unknown.status).toBe(400);
    expectErrorBody(unknown, 'unknown_field', 'guest_name');
  });
});
