import { collection, field } from '@convapi/dsl';

/** Users: a user name is unique; each user has one private profile (see profiles.ts). */
export default collection({
  name: 'users',
  identifier: { name: 'user_id', type: 'integer' },
  fields: {
    user_name: field.string({ required: true, unique: true, minLength: 1, filterable: true, searchable: true }),
  },
  versions: { v1: {}, v2: {} },
});
