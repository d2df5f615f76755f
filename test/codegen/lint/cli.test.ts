import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPOSITORY, SOURCE_CONDITION } from '../../support/spawn-server.ts';
import { CLI } from '../../support/temp-project.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

const lint = (root: string) =>
  spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'lint', '--root', root], {
    cwd: REPOSITORY,
    encoding: 'utf8',
  });

describe('npm run lint:definitions', () => {
  it('prints path:line:col severity rule-id message with the offending line, and exits 1 on an error', () => {
    const root = writeDefinitions({
      'order.ts': `import { collection, field } from 'DSL';\nexport default collection({\n  name: 'order',\n  fields: {},\n  versions: { v1: {} },\n});\n`,
    });
    const result = lint(root);
    expect(result.status).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      'definitions/order.ts:3:3 error plural-collection collection name "order" is not plural; a collection path is the plural name: name it "orders"',
      "  |   name: 'order',",
      '1 error(s), 0 warning(s)',
      '',
    ]);
  });

  it('exits 0 on the example API', () => {
    const result = lint(REPOSITORY);
    expect(result.stdout).toBe('definitions: no problems\n');
    expect(result.status).toBe(0);
  });
});
