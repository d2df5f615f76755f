import { collection, field } from '@convapi/dsl';

/** Orders: what a trade refers to. */
export default collection({
  name: 'orders',
  identifier: { name: 'order_id', type: 'integer' },
  fields: {
    item: field.string({ required: true, minLength: 1, filterable: true, searchable: true }),
    quantity: field.integer({ required: true, min: 1, filterable: true }),
  },
  versions: { v1: {}, v2: {} },
});
