import { describe, expect, it } from 'vitest';
import { DefinitionLoadError, loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

const SHARED_FIELDS = `import { field } from 'DSL';
export const item = field.string({ required: true, minLength: 1 });
`;

describe('definitions/ files without a default export', () => {
  it('are helper modules: the definitions importing them load, and they declare nothing', async () => {
    const root = writeDefinitions({
      'shared-fields.ts': SHARED_FIELDS,
      'orders.ts': `import { collection } from 'DSL';
import { item } from './shared-fields.ts';
export default collection({ name: 'orders', fields: { item }, versions: { v1: {} } });
`,
    });
    const loaded = await loadDefinitions(root);
    expect(loaded.map(({ file, declaration }) => [file, declaration.name])).toEqual([
      ['definitions/orders.ts', 'orders'],
    ]);
  });

  it('a default export that is not a declaration still fails to load', async () => {
    const root = writeDefinitions({ 'shared-fields.ts': `${SHARED_FIELDS}export default item;\n` });
    await expect(loadDefinitions(root)).rejects.toThrow(
      new DefinitionLoadError(
        'definitions/shared-fields.ts',
        'must export default one declaration made with collection(), aggregate(), service() or setting()',
      ),
    );
  });
});
