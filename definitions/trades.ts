import { collection, field } from '@convapi/dsl';

/** Trades: each may refer to an order, returned as the order's URI unless expanded. */
export default collection({
  name: 'trades',
  identifier: { name: 'trade_id', type: 'integer' },
  fields: {
    trade_name: field.string({ required: true, minLength: 1, filterable: true, searchable: true }),
    order: field.reference('orders'),
  },
  // Served as `deals` before: GET /v1/deals/7 answers 301 to /v1/trades/7.
  versions: { v1: { movedFrom: ['deals'] }, v2: { movedFrom: ['deals'] } },
});
