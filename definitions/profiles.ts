import { aggregate, field } from '@convapi/dsl';

/** The profile of a user: an aggregate, read and replaced only at /{v}/users/{user_id}/profiles. */
export default aggregate({
  name: 'profiles',
  parent: 'users',
  fields: {
    full_name: field.string({ required: true, minLength: 1 }),
    state: field.string(),
    title: field.string(),
  },
  versions: { v1: {}, v2: {} },
});
