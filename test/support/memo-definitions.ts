// A definition for row-access tests in copied projects (written to definitions/memos.ts there).

/** Memos: each its owner's (memos:admin sees all), searchable, referring to another. */
export const MEMOS = `import { caller, collection, field } from '@convapi/dsl';
export default collection({
  name: 'memos',
  identifier: { name: 'memo_id', type: 'integer' },
  fields: {
    owner: field.string({ required: true, minLength: 1 }),
    title: field.string({ required: true, minLength: 1, filterable: true, searchable: true }),
    about: field.reference('memos'),
  },
  rows: { see: { any: [{ field: 'owner', equals: caller.user }, { scope: 'memos:admin' }] } },
  versions: { v1: {}, v2: {} },
});
`;
