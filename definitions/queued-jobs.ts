import { z } from 'zod';
import { job, jobQueue } from '@convapi/dsl';

/** Background jobs: PUT /services/{v}/queued/jobs adds one; GET and DELETE /services/{v}/queued/jobs/{id}. */
export default jobQueue({
  name: 'queued/jobs',
  versions: { v1: {}, v2: {} },
  concurrency: 2,
  jobs: {
    reindex: job({
      description: 'Rebuilds the search index of the named collections, or of every searchable one.',
      payload: z.object({ collections: z.array(z.string().min(1)).min(1).optional() }).strict(),
      run: ({ collections }, tools) => {
        const unknown = (collections ?? []).filter((name) => !tools.searchableCollections().includes(name));
        if (unknown.length > 0) throw new Error(`not searchable collections: ${unknown.join(', ')}`);
        return tools.reindex(collections);
      },
    }),
    'import-order': job({
      description:
        "Creates one order from an outside system's record; when done, GET of the job answers 303 to the order.",
      payload: z.object({ item: z.string().min(1), quantity: z.number().int().min(1) }).strict(),
      produces: 'orders',
      run: (record, tools) => tools.createResource('orders', record),
    }),
    'remind-guest': job({
      description:
        'Reminds a guest of a reservation (queued by each reservation made, in its transaction). The example records the reminder in audits where a real API would send a message.',
      payload: z.object({ reservation_id: z.number().int().min(1), guest_name: z.string().min(1) }).strict(),
      produces: 'audits',
      run: ({ reservation_id, guest_name }, tools) =>
        tools.createResource('audits', {
          action: 'reminded',
          summary: `reservation ${reservation_id}: ${guest_name} reminded`,
        }),
    }),
  },
});
