import { collection, field } from '@convapi/dsl';

/**
 * Batches: large writes the server does in the background. POST, PUT, PATCH and DELETE are checked
 * at once (400, 404, 412), then answered 202 with Location of a job in queued/jobs; GET of the job
 * tells its state, and answers 303 to the batch once a create, replace or update has succeeded.
 */
export default collection({
  name: 'batches',
  identifier: { name: 'batch_id', type: 'integer' },
  fields: {
    label: field.string({ required: true, minLength: 1, filterable: true }),
    size: field.integer({ min: 0 }),
  },
  asynchronous: { queue: 'queued/jobs', operations: ['create', 'replace', 'update', 'delete'] },
  versions: { v1: {}, v2: {} },
});
