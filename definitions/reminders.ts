import { field, setting } from '@convapi/dsl';

/**
 * Visit reminders of the caller: GET /settings/{v}/reminders answers the declared defaults until the
 * caller first writes it; PATCH changes the fields it sends.
 */
export default setting({
  name: 'reminders',
  fields: {
    enabled: field.boolean({ required: true, default: true }),
    hours_before: field.integer({
      min: 1,
      max: 168,
      default: 24,
      description: 'How long before a visit the reminder is sent.',
    }),
  },
  versions: { v1: {}, v2: {} },
});
