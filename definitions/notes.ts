import { caller, collection, field } from '@convapi/dsl';

/**
 * Notes: each belongs to the user who wrote it (owner, the user name a token acts for). A caller sees
 * and changes its own user's notes; a token with the scope notes:admin sees and changes them all. A
 * note the caller may not see answers as a missing one (404). Writing needs the scope notes:write.
 */
export default collection({
  name: 'notes',
  identifier: { name: 'note_id', type: 'integer' },
  fields: {
    owner: field.string({ required: true, minLength: 1, description: 'The user name of the note’s owner' }),
    title: field.string({ required: true, minLength: 1, maxLength: 200, filterable: true, searchable: true }),
    text: field.string({ maxLength: 10_000, searchable: true }),
    about: field.reference('notes', { description: 'Another note this one follows up' }),
  },
  rows: {
    see: { any: [{ field: 'owner', equals: caller.user }, { scope: 'notes:admin' }] },
  },
  scopes: { POST: ['notes:write'], PUT: ['notes:write'], PATCH: ['notes:write'], DELETE: ['notes:write'] },
  versions: { v1: {}, v2: {} },
});
