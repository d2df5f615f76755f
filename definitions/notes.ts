import { collection, field } from '@convapi/dsl';

/**
 * Notes: each belongs to the user who wrote it (owner, the user name a token acts for). Writing one
 * needs the scope notes:write.
 */
export default collection({
  name: 'notes',
  identifier: { name: 'note_id', type: 'integer' },
  fields: {
    owner: field.string({ required: true, minLength: 1, filterable: true, description: 'The user name of the note’s owner' }),
    title: field.string({ required: true, minLength: 1, maxLength: 200, filterable: true, searchable: true }),
    text: field.string({ maxLength: 10_000, searchable: true }),
  },
  scopes: { POST: ['notes:write'], PUT: ['notes:write'], PATCH: ['notes:write'], DELETE: ['notes:write'] },
  versions: { v1: {}, v2: {} },
});
