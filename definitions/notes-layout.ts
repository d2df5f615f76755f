import { field, setting, unprocessable, type SettingCheck } from '@convapi/dsl';

const fields = {
  view: field.string({ required: true, pattern: /^(list|grid)$/, description: 'list or grid' }),
  columns: field.integer({ min: 1, max: 6, description: 'How many columns the grid view has (grid only)' }),
};

/** A cross-field rule on the value as it will be stored: columns belong to the grid view. */
const columnsOnlyInGrid: SettingCheck<typeof fields> = ({ next }) => {
  if (next.columns !== undefined && next.columns !== null && next.view !== 'grid')
    throw unprocessable('columns_need_grid', 'columns can be set only with the grid view', { field: 'columns' });
};

/**
 * How the caller's notes are laid out: anyone reads it; changing it needs the scope notes:write, and
 * its rule keeps columns to the grid view (PUT and PATCH alike).
 */
export default setting({
  name: 'notes/layout',
  fields,
  scopes: { PUT: ['notes:write'] },
  rules: { replace: columnsOnlyInGrid, update: columnsOnlyInGrid },
  versions: { v1: {}, v2: {} },
});
