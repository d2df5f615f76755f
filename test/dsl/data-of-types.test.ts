import { fileURLToPath } from 'node:url';
import { Project, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One program for every case: each overwrites the same file. */
let project: Project | undefined;

/**
 * Type-checks a rule written as a user would, next to the real DSL and the example API's generated
 * generated/collection-rows.ts (which types `data.of(name)`), and returns its errors.
 */
function typeErrors(body: string): string[] {
  project ??= new Project({ tsConfigFilePath: `${root}tsconfig.json`, skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([`${root}dsl/*.ts`, `${root}generated/collection-rows.ts`]);
  const source = `import type { DataAccess } from '@convapi/dsl';\nexport function* rule(data: DataAccess) {\n${body}\n}\n`;
  const file = project.createSourceFile(`${root}definitions/__data_of_check__.ts`, source, { overwrite: true });
  return file
    .getPreEmitDiagnostics()
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, '\n'));
}

describe("data.of('name'): a collection named by a string is typed by its fields", () => {
  it('reads and writes the named collection with its own field types', () => {
    const errors = typeErrors(`
      const room: string | null | undefined = (yield* data.of('reservations').read(1))?.room;
      const { rows } = yield* data.of('reservations', { rows: 'all' }).list({ where: { room: 'B' } });
      const fee: number | null | undefined = rows[0]?.fee === undefined ? undefined : (yield* data.of('visits').get(1)).fee;
      yield* data.of('visits').update(1, { fee: 12, pet: 3 });
      return [room, fee];`);
    expect(errors).toEqual([]);
  });

  it.each([
    ['a name no definition declares', `yield* data.of('reservatons').read(1);`, /No overload matches this call/],
    [
      'a field the collection does not have',
      `yield* data.of('reservations').create({ rooom: 'B' });`,
      /'rooom' does not exist .*Did you mean to write 'room'\?/s,
    ],
    [
      "a value of another type than the field's",
      `yield* data.of('visits').update(1, { fee: 'twelve' });`,
      /Type 'string' is not assignable to type 'number'/,
    ],
    [
      'a field read as another type',
      `const room: number | null | undefined = (yield* data.of('reservations').read(1))?.room;`,
      /Type 'string \| null \| undefined' is not assignable to type 'number \| null \| undefined'/,
    ],
    ['a filter on a field it does not have', `yield* data.of('pets').list({ where: { colour: 'red' } });`, /'colour'/],
  ])('%s does not compile', (_name, body, want) => {
    const errors = typeErrors(body);
    expect(errors.join('\n'), errors.join('\n')).toMatch(want);
  });
});

/**
 * Type-checks rule code next to a collection with references, declared as a user would: one to pets
 * (an integer identifier), a list of references to products (a string identifier). The body runs as
 * the collection's own create rule (`write`) and in a function given an effect's input (`effect`).
 */
function ruleTypeErrors(body: string): string[] {
  project ??= new Project({ tsConfigFilePath: `${root}tsconfig.json`, skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([`${root}dsl/*.ts`, `${root}generated/collection-rows.ts`]);
  const source = `import { collection, field, type EffectInput } from '@convapi/dsl';
const fields = {
  pet: field.reference('pets', { required: true }),
  products: field.array(field.reference('products')),
};
export function effectOf(effect: EffectInput<typeof fields>) {
  return effect.row;
}
export default collection({
  name: 'checkups',
  fields,
  rules: {
    *create(write) {
      const effect = { row: effectOf(undefined as never) };
${body}
    },
  },
  versions: { v1: {} },
});
`;
  const file = project.createSourceFile(`${root}definitions/__rule_input_check__.ts`, source, { overwrite: true });
  return file
    .getPreEmitDiagnostics()
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, '\n'));
}

describe("a reference in a rule's input holds its target's identifier, as generated/collection-rows.ts types it", () => {
  it('is a number for an integer identifier and a string for a string one, as data.of(name) takes them', () => {
    const errors = ruleTypeErrors(`
      const pet: number | null | undefined = write.next.pet;
      const stored: number | null | undefined = write.stored.pet;
      const before: number | null | undefined = write.current?.pet;
      const products: string[] | null | undefined = write.next.products;
      const row: number | null | undefined = effect.row.pet;
      const { rows } = yield* write.data
        .of('visits', { rows: 'all' })
        .list({ where: { pet: write.next.pet!, products: write.next.products! }, limit: 1 });
      void [pet, stored, before, products, row, rows];`);
    expect(errors).toEqual([]);
  });

  it.each([
    ['a reference to an integer identifier read as a string', `const pet: string | null | undefined = write.next.pet;`],
    [
      'a list of references to a string identifier read as numbers',
      `const ids: number[] | null | undefined = write.next.products;`,
    ],
    ["an effect's reference read as a string", `const pet: string | null | undefined = effect.row.pet;`],
  ])('%s does not compile', (_name, body) => {
    expect(ruleTypeErrors(body).join('\n')).toMatch(/is not assignable to type/);
  });
});
