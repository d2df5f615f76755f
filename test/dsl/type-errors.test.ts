import { fileURLToPath } from 'node:url';
import { Project, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Type-checks one definition file written as a user would, next to the real DSL, and returns its errors. */
function typeErrors(source: string): string[] {
  const project = new Project({ tsConfigFilePath: `${root}tsconfig.json`, skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths(`${root}dsl/*.ts`);
  const file = project.createSourceFile(`${root}definitions/__type_check__.ts`, source, { overwrite: true });
  return file
    .getPreEmitDiagnostics()
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, '\n'));
}

const header = "import { collection, field } from '@convapi/dsl';\n";

describe('a mistyped declaration fails type checking with a readable error', () => {
  it('accepts a well-formed declaration', () => {
    expect(
      typeErrors(
        `${header}export default collection({ name: 'books', fields: { title: field.string({ required: true }) }, versions: { v1: {} } });`,
      ),
    ).toEqual([]);
  });

  it("accepts a default of the field's type on every kind that takes one", () => {
    const fields =
      "title: field.string({ required: true, default: 'untitled' }), pages: field.integer({ default: 1 }), price: field.number({ default: 9.5 }), signed: field.boolean({ required: true, default: false }), due: field.time({ default: '2026-01-01T00:00:00Z' }), lang: field.languageTag({ default: 'en' })";
    expect(
      typeErrors(`${header}export default collection({ name: 'books', fields: { ${fields} }, versions: { v1: {} } });`),
    ).toEqual([]);
  });

  it.each([
    [
      'an uppercase property name',
      `fields: { bookTitle: field.string() }`,
      /property bookTitle must be lowercase snake_case/,
    ],
    [
      'a wrong option type',
      `fields: { pages: field.integer({ min: '1' }) }`,
      /Type 'string' is not assignable to type 'number'/,
    ],
    ['a field that is not a field helper', `fields: { title: 'string' }`, /not assignable to type 'FieldDeclaration/],
    ['an unknown option', `fields: { title: field.string({ requird: true }) }`, /'requird' does not exist/],
    [
      'a default of another type than the field',
      `fields: { pages: field.integer({ required: true, default: 'ten' }) }`,
      /Type 'string' is not assignable to type 'number'/,
    ],
    [
      'a default on a reference',
      `fields: { order: field.reference('orders', { default: 1 }) }`,
      /'default' does not exist/,
    ],
  ])('%s', (_name, fields, want) => {
    const errors = typeErrors(
      `${header}export default collection({ name: 'books', ${fields}, versions: { v1: {} } });`,
    );
    expect(errors.join('\n'), errors.join('\n')).toMatch(want);
  });

  it('a missing versions member is named', () => {
    const errors = typeErrors(`${header}export default collection({ name: 'books', fields: {} });`);
    expect(errors.join('\n')).toMatch(/Property 'versions' is missing/);
  });
});
