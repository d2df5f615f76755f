import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintProject } from '../../../codegen/lint/index.ts';
import type { Diagnostic } from '../../../codegen/lint/diagnostic.ts';
import { REPOSITORY, SOURCE_CONDITION } from '../../support/spawn-server.ts';
import { CLI, copyProjectWithoutMigrations, generateIn } from '../../support/temp-project.ts';

const lint = (root: string) =>
  spawnSync(process.execPath, [...SOURCE_CONDITION, CLI, 'lint', '--root', root], {
    cwd: REPOSITORY,
    encoding: 'utf8',
  });

/** A helper module of rules, as a user writes one: it types only through generated/collection-rows.ts. */
const roomCheck = (room: string) => `import type { DataAccess } from '@convapi/dsl';

export function* roomTaken(data: DataAccess) {
  const { rows } = yield* data.of('reservations', { rows: 'all' }).list({ where: { room: ${room} }, limit: 1 });
  return rows.length > 0;
}
`;

/** A new collection whose rule lists its own rows: only the types generated from it know `fines`. */
const fines = (amount: string) => `import { collection, field } from '@convapi/dsl';

export default collection({
  name: 'fines',
  identifier: { name: 'fine_id', type: 'integer' },
  fields: { amount: field.number({ required: true, filterable: true }) },
  rules: {
    *create(write) {
      yield* write.data.of('fines', { rows: 'all' }).list({ where: { amount: ${amount} }, limit: 1 });
    },
  },
  versions: { v1: {} },
});
`;

describe("lint's type check sees the definitions as tsc does, generated types included", () => {
  it('reports a type error that only the generated types of data.of(name) reveal, at its place', () => {
    const root = copyProjectWithoutMigrations();
    writeFileSync(join(root, 'definitions/room-check.ts'), roomCheck('5'));
    const result = lint(root);
    expect(result.stdout).toContain(
      "definitions/room-check.ts:4:84 error type-check TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(result.status).toBe(1);

    writeFileSync(join(root, 'definitions/room-check.ts'), roomCheck("'B'"));
    expect(lint(root).stdout).toBe('definitions: no problems\n');
  });

  it('generates a new collection whose rule names it, checking it against the types about to be written', () => {
    const root = copyProjectWithoutMigrations();
    // generated/ does not know fines yet: checked against it, `data.of('fines')` would not compile.
    writeFileSync(join(root, 'definitions/fines.ts'), fines("'five'"));
    const refused = generateIn(root);
    expect(refused.output).toContain(
      "definitions/fines.ts:9:70 error type-check TS2322: Type 'string' is not assignable to type 'number'.",
    );
    expect(refused.output).not.toContain('\'"fines"\'');
    expect(refused.status).toBe(1);

    writeFileSync(join(root, 'definitions/fines.ts'), fines('5'));
    const generated = generateIn(root);
    expect(generated.output).toContain('written');
    expect(generated.status).toBe(0);
    expect(lint(root).stdout).toBe('definitions: no problems\n');
  });
});

describe('the second check against the types generate is about to write', () => {
  const typeError = (file: string): Diagnostic => ({
    rule: 'type-check',
    severity: 'error',
    message: 'TS2345: Argument of type \'"fines"\' is not assignable',
    file,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    sourceLine: '',
  });
  /** A type checker that records the context files of each check and answers `first`, then nothing. */
  const recording = (first: Diagnostic[]) => {
    const contexts: (readonly string[])[] = [];
    const check = async (_root: string, _files: readonly string[], context: readonly string[] = []) => {
      contexts.push(context);
      return contexts.length === 1 ? first : [];
    };
    return { contexts, check };
  };
  const newTypes = async () => '// the types of a collection added since\n';

  it('runs only when the check against generated/ refused something: a clean first generate checks once', async () => {
    const root = copyProjectWithoutMigrations();
    const { contexts, check } = recording([]);
    const lint = await lintProject(root, { typeCheck: check, generatedTypes: newTypes });
    expect(contexts).toHaveLength(1);
    expect(lint.diagnostics.filter((diagnostic) => diagnostic.rule === 'type-check')).toEqual([]);
  });

  it('checks again with the new types when the first check refused, and reports what that one finds', async () => {
    const root = copyProjectWithoutMigrations();
    const { contexts, check } = recording([typeError('definitions/orders.ts')]);
    const lint = await lintProject(root, { typeCheck: check, generatedTypes: newTypes });
    expect(contexts).toHaveLength(2);
    expect(contexts[1]![0]).toMatch(/collection-rows\.ts$/);
    expect(lint.diagnostics.filter((diagnostic) => diagnostic.rule === 'type-check')).toEqual([]);
  });
});
