import { describe, expect, it } from 'vitest';
import { useCheckedApi } from '../../support/checked-client.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { until } from '../../support/poll.ts';

/** A time `days` from now, in whole hours (ISO 8601 UTC). */
const inDays = (days: number, hours = 0) =>
  new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + (days * 24 + hours) * 3_600_000)
    .toISOString()
    .replace('.000Z', 'Z');

describe('business rules of the example reservations: per operation, cross-field, computed, effects in the same transaction', () => {
  const { api, send } = useCheckedApi();
  let room = 0;
  /** A room no other test reserves. */
  const freshRoom = () => `room-${process.pid}-${(room += 1)}`;
  const audits = async (action: string) =>
    (await send('get', `/v1/audits?action=${action}&limit=500`)).body as { summary: string; actor?: string }[];

  it.each([['v1'], ['v2']])(
    '%s: a create that breaks no rule is stored with its computed field; its effects write an audit entry and queue a reminder job',
    async (version) => {
      const reservation = { guest_name: 'Ada LOVELACE', room: freshRoom(), starts_at: inDays(3), ends_at: inDays(4) };
      const created = await send('post', `/${version}/reservations`, reservation);
      expect(created.status).toBe(201);
      const id = created.body.identity;
      const read = await send('get', new URL(created.headers.location!).pathname);
      expect(read.body).toMatchObject({ ...reservation, guest_key: 'ada lovelace' });
      const entries = await audits('reserved');
      expect(entries.filter((entry) => entry.summary.includes(reservation.room))).toEqual([
        expect.objectContaining({
          summary: `reservation ${id}: Ada LOVELACE in ${reservation.room} from ${reservation.starts_at} to ${reservation.ends_at}`,
          actor: 'e2e-tests',
        }),
      ]);
      // The job the effect queued runs once the write has committed, and records its reminder.
      const reminded = await until(
        () => audits('reminded'),
        (found) => found.some((entry) => entry.summary === `reservation ${id}: Ada LOVELACE reminded`),
      );
      expect(reminded.filter((entry) => entry.summary.startsWith(`reservation ${id}:`))).toHaveLength(1);
      // The computed field filters like any other.
      const listed = await send('get', `/${version}/reservations?guest_key=ada%20lovelace&room=${reservation.room}`);
      expect(listed.body).toHaveLength(1);
    },
  );

  it('a rule on create only: a new reservation in the past -> 422 starts_in_past; replacing an old one stays possible', async () => {
    const past = { guest_name: 'Grace', room: freshRoom(), starts_at: inDays(-3), ends_at: inDays(-2) };
    const refused = await send('post', '/v1/reservations', past);
    expect(refused.status).toBe(422);
    expectErrorBody(refused, 'starts_in_past', 'starts_at');
    expect(refused.body.errors[0].resource).toBe('reservations');
    // Nothing of the refused write was kept: neither the reservation nor its audit entry.
    expect((await send('get', `/v1/reservations?room=${past.room}`)).body).toEqual([]);
    expect((await audits('reserved')).filter((entry) => entry.summary.includes(past.room))).toEqual([]);

    const created = await send('post', '/v1/reservations', { ...past, starts_at: inDays(1), ends_at: inDays(2) });
    const path = new URL(created.headers.location!).pathname;
    const replaced = await send('put', path, past);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ starts_at: past.starts_at, guest_key: 'grace' });
  });

  it('a cross-field rule on every write: ends_at before starts_at -> 400 ends_before_start on POST, PUT and PATCH', async () => {
    const valid = { guest_name: 'Linus', room: freshRoom(), starts_at: inDays(5), ends_at: inDays(6) };
    const backwards = { ...valid, ends_at: inDays(4) };
    expectErrorBody(await send('post', '/v1/reservations', backwards), 'ends_before_start', 'ends_at');
    const path = new URL((await send('post', '/v1/reservations', valid)).headers.location!).pathname;
    const put = await send('put', path, backwards);
    expect(put.status).toBe(400);
    expectErrorBody(put, 'ends_before_start', 'ends_at');
    // PATCH sends one field: the rule reads the row as it would be stored.
    const patch = await send('patch', path, { starts_at: inDays(7) });
    expect(patch.status).toBe(400);
    expectErrorBody(patch, 'ends_before_start', 'ends_at');
    expect((await send('get', path)).body).toMatchObject(valid);
  });

  it('a rule reading other rows in the transaction: an overlapping reservation of the same room -> 409 room_taken', async () => {
    const first = { guest_name: 'Alan', room: freshRoom(), starts_at: inDays(10), ends_at: inDays(12) };
    expect((await send('post', '/v1/reservations', first)).status).toBe(201);
    const overlapping = await send('post', '/v1/reservations', {
      ...first,
      guest_name: 'Kurt',
      starts_at: inDays(11),
      ends_at: inDays(13),
    });
    expect(overlapping.status).toBe(409);
    expectErrorBody(overlapping, 'room_taken', 'starts_at');
    expect(
      (
        await send('post', '/v1/reservations', {
          ...first,
          guest_name: 'Kurt',
          starts_at: inDays(12),
          ends_at: inDays(13),
        })
      ).status,
    ).toBe(201);
  });

  it('a read-only field sent by a client -> 400 read_only_field naming it, on POST, PUT and PATCH', async () => {
    const reservation = { guest_name: 'Edsger', room: freshRoom(), starts_at: inDays(20), ends_at: inDays(21) };
    const refused = await send('post', '/v1/reservations', { ...reservation, guest_key: 'someone else' });
    expect(refused.status).toBe(400);
    expectErrorBody(refused, 'read_only_field', 'guest_key');
    const path = new URL((await send('post', '/v1/reservations', reservation)).headers.location!).pathname;
    expectErrorBody(await send('put', path, { ...reservation, guest_key: 'edsger' }), 'read_only_field', 'guest_key');
    expectErrorBody(await send('patch', path, { guest_key: 'x' }), 'read_only_field', 'guest_key');
    // A rename computes it again.
    expect((await send('patch', path, { guest_name: 'EWD' })).body.guest_key).toBe('ewd');
  });

  it('a delete effect writes its audit entry with the delete; the audits collection is read-only to clients', async () => {
    const reservation = { guest_name: 'Barbara', room: freshRoom(), starts_at: inDays(30), ends_at: inDays(31) };
    const path = new URL((await send('post', '/v1/reservations', reservation)).headers.location!).pathname;
    expect((await send('delete', path)).status).toBe(204);
    const id = path.split('/').at(-1);
    expect(
      (await audits('cancelled')).filter(
        (entry) => entry.summary === `reservation ${id}: Barbara in ${reservation.room}`,
      ),
    ).toHaveLength(1);
    expect((await api().post('/v1/audits', { action: 'forged', summary: 'x' })).status).toBe(405);
  });
});
