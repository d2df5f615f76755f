import { collection, field } from '@convapi/dsl';

/**
 * Audits: what happened to reservations, one entry per reservation made or cancelled. Clients only
 * read them; the reservations' rules write them, in the same transaction as the reservation itself.
 */
export default collection({
  name: 'audits',
  identifier: { name: 'audit_id', type: 'integer' },
  fields: {
    action: field.string({ required: true, minLength: 1, filterable: true }),
    summary: field.string({ required: true, minLength: 1 }),
    /** The client that made the change. */
    actor: field.string({ filterable: true }),
  },
  versions: { v1: {}, v2: {} },
  operations: { create: false, replace: false, update: false, delete: false },
});
