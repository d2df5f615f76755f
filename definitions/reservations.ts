import { z } from 'zod';
import { badRequest, collection, conflict, field, unprocessable, type ReadRow, type WriteCheck } from '@convapi/dsl';
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

/** The reservation among `others` that holds the room at some time between starts_at and ends_at, if any. */
const overlapping = (others: readonly ReadRow<typeof fields>[], starts_at: string, ends_at: string) =>
  others.find(
    (other) =>
      Date.parse(String(other.starts_at)) < Date.parse(ends_at) &&
      Date.parse(starts_at) < Date.parse(String(other.ends_at)),
  );

const roomTaken = (room: string, other: ReadRow<typeof fields>) =>
  conflict('room_taken', `${room} is reserved from ${String(other.starts_at)} to ${String(other.ends_at)}`, {
    field: 'starts_at',
  });

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
      const other = overlapping(rows, starts_at!, ends_at!);
      if (other !== undefined) throw roomTaken(room!, other);
    },
    replace: endsAfterItStarts,
    update: endsAfterItStarts,
  },
  ownOperations: [
    {
      /**
       * POST /{v}/reservations/{id}/moves: moves a reservation to another room or time, and records
       * the move in audits, in one transaction; answers the reservation as it now is. The move goes through the reservation's own update rule
       * (ends after it starts); the overlap is checked last, on the rows as this transaction left
       * them, so a move into a taken slot keeps neither the move nor its audit entry.
       */
      method: 'POST',
      path: 'moves',
      description:
        'Moves the reservation to another room or time, recorded in audits; 409 room_taken when the slot is taken.',
      body: z.object({ room: fields.room.schema, starts_at: fields.starts_at.schema, ends_at: fields.ends_at.schema }),
      *handle({ key, body, caller, collection: reservations, data }) {
        const before = yield* reservations.get(key);
        const moved = yield* reservations.update(key, body);
        yield* data.of(audits).create({
          action: 'moved',
          summary: `reservation ${key}: from ${before.room} ${before.starts_at} to ${moved.room} ${moved.starts_at}`,
          actor: caller?.client ?? null,
        });
        const { rows } = yield* data
          .of('reservations', { rows: 'all' })
          .list({ where: { room: moved.room }, limit: 500 });
        const other = overlapping(
          rows.filter((row) => row.reservation_id !== key),
          moved.starts_at!,
          moved.ends_at!,
        );
        if (other !== undefined) throw roomTaken(moved.room!, other);
        return { resource: moved };
      },
    },
  ],
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
