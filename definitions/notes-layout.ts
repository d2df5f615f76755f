import { field, setting } from '@convapi/dsl';

/** How the caller's notes are laid out: anyone reads it; changing it needs the scope notes:write. */
export default setting({
  name: 'notes/layout',
  fields: { view: field.string({ required: true, pattern: /^(list|grid)$/, description: 'list or grid' }) },
  scopes: { PUT: ['notes:write'] },
  versions: { v1: {}, v2: {} },
});
