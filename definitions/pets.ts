import { collection, field } from '@convapi/dsl';

/** Pets of a veterinary clinic: what a visit is for. `species` is one of a listed set (`?species=cat`);
 * `allergies` a list of strings; `vaccinations` a list of listed values, filtered by one of them
 * (`?vaccinations.contains=rabies`); `owner` a nested object (with its own nested `address`), stored as
 * such: an owner needs a name, an address a city. */
export default collection({
  name: 'pets',
  identifier: { name: 'pet_id', type: 'integer' },
  fields: {
    pet_name: field.string({ required: true, minLength: 1, filterable: true, sortable: true, searchable: true }),
    born_at: field.time(),
    species: field.enum(['cat', 'dog', 'rabbit', 'bird', 'other'], { filterable: true }),
    allergies: field.array(field.string({ minLength: 1, maxLength: 40 }), { maxItems: 10, uniqueItems: true }),
    vaccinations: field.array(field.enum(['rabies', 'distemper', 'parvovirus', 'leptospirosis', 'kennel-cough']), {
      uniqueItems: true,
      filterable: true,
    }),
    owner: field.object({
      name: field.string({ required: true, minLength: 1, maxLength: 100 }),
      phone: field.string({ maxLength: 30 }),
      address: field.object({
        street: field.string({ maxLength: 200 }),
        city: field.string({ required: true, minLength: 1, maxLength: 100 }),
        postcode: field.string({ maxLength: 20 }),
      }),
    }),
  },
  versions: { v1: {}, v2: {} },
});
