import { collection, field } from '@convapi/dsl';

/** Pets of a veterinary clinic: what a visit is for. */
export default collection({
  name: 'pets',
  identifier: { name: 'pet_id', type: 'integer' },
  fields: {
    pet_name: field.string({ required: true, minLength: 1, filterable: true, sortable: true, searchable: true }),
    born_at: field.time(),
  },
  versions: { v1: {}, v2: {} },
});
