import { badRequest, collection, conflict, field, unprocessable, type WriteCheck } from '@convapi/dsl';
import audits from './audits.ts';

const fields = {
  // Bounded so that guest_key, its indexed lower-case copy, stays within an index entry.
  guest_name: field.string({ required: true, minLength: 1, maxLength: 200, searchable: true }),
  /** Computed from guest_name at every write: clients filter on it, never write it. */
  guest_key: field.string({
    readOnly: true,
    filterable: true,
    description: 'guest_name in lower case, set by the server',
  }),
  room: field.string({ required: true, minLength: 1, filterable: true }),
  starts_at: field.time({ required: true }),
  ends_at: field.time({ required: true }),
};

/** A cross-field rule, on every write: a reservation ends after it starts (checked on the row as it will be stored). */
const endsAfterItStarts: WriteCheck<typeof fields> = ({ next }) => {
  if (Date.parse(next.ends_at!) <= Date.parse(next.starts_at!)) {
    throw badRequest('ends_before_start', 'ends_at must be later than starts_at', { field: 'ends_at' });
  }
};

/**
 * Reservations of rooms. New ones cannot start in the past (a rule on create only: replacing an old
 * reservation or importing history stays possible) and never overlap another one of the same room.
 * Each one made or cancelled leaves an entry in audits, and each one made queues a reminder job, all
 * in the same transaction as the reservation itself.
 */
export default collection({
  name: 'reservations',
  identifier: { name: 'reservation_id', type: 'integer' },
  fields,
  versions: { v1: {}, v2: {} },
  compute: { guest_key: (row) => row.guest_name?.toLowerCase() },
  rules: {
    *create(write) {
      endsAfterItStarts(write);
      const { starts_at, ends_at, room } = write.next;
      if (Date.parse(starts_at!) < Date.now())
        throw unprocessable('starts_in_past', 'a new reservation cannot start in the past', { field: 'starts_at' });
      // Every reservation of the room counts, whoever made it: the rule asks for every row, not only the caller's.
      const { rows } = yield* write.data.of('reservations', { rows: 'all' }).list({ where: { room }, limit: 500 });
      const overlapping = rows.find(
        (other) =>
          Date.parse(String(other.starts_at)) < Date.parse(ends_at!) &&
          Date.parse(starts_at!) < Date.parse(String(other.ends_at)),
      );
      if (overlapping !== undefined)
        throw conflict(
          'room_taken',
          `${room} is reserved from ${String(overlapping.starts_at)} to ${String(overlapping.ends_at)}`,
          { field: 'starts_at' },
        );
    },
    replace: endsAfterItStarts,
    update: endsAfterItStarts,
  },
  effects: {
    *create({ row, key, caller, data }) {
      yield* data.of(audits).create({
        action: 'reserved',
        summary: `reservation ${key}: ${row.guest_name} in ${row.room} from ${row.starts_at} to ${row.ends_at}`,
        actor: caller?.client ?? null,
      });
      yield* data.enqueue('queued/jobs', 'remind-guest', { reservation_id: Number(key), guest_name: row.guest_name! });
    },
    *delete({ row, key, caller, data }) {
      yield* data.of(audits).create({
        action: 'cancelled',
        summary: `reservation ${key}: ${row.guest_name} in ${row.room}`,
        actor: caller?.client ?? null,
      });
    },
  },
});
