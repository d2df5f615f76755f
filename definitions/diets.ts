import { aggregate, field } from '@convapi/dsl';

/**
 * The diet of a pet: an aggregate at /{v}/pets/{pet_id}/diets. Before its first write GET answers
 * the declared defaults; PATCH changes the fields it sends.
 */
export default aggregate({
  name: 'diets',
  parent: 'pets',
  fields: {
    food: field.string({ required: true, minLength: 1, default: 'standard' }),
    meals_per_day: field.integer({ min: 1, max: 6, default: 2 }),
    notes: field.string(),
  },
  versions: { v1: {}, v2: {} },
});
