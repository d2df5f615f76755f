import { describe, expect, it } from 'vitest';
import { generate } from '../../../codegen/generate.ts';
import { lintDefinitions } from '../../../codegen/lint/index.ts';
import { loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { resolveModel } from '../../../codegen/model/index.ts';
import { writeDefinitions } from '../../support/temp-definitions.ts';

const notes = `import { collection, field } from 'DSL';
export default collection({
  name: 'notes',
  fields: {
    title: field.string({ required: true, default: 'untitled', maxLength: 40 }),
    lang: field.languageTag({ default: 'fr-fr' }),
    pinned: field.boolean({ required: true, default: false }),
    body: field.string(),
  },
  versions: { v1: {} },
});
`;

describe('field defaults in the model and the generated code', () => {
  it('resolves each default as its field reads it (a language tag in canonical form), and lints clean', async () => {
    const root = writeDefinitions({ 'notes.ts': notes });
    const [collection] = resolveModel(await loadDefinitions(root)).collections;
    expect(
      collection!.fields.map(({ name, required, default: fallback }) => ({ name, required, default: fallback })),
    ).toEqual([
      { name: 'title', required: true, default: 'untitled' },
      { name: 'lang', required: false, default: 'fr-FR' },
      { name: 'pinned', required: true, default: false },
      { name: 'body', required: false, default: undefined },
    ]);
    expect(await lintDefinitions(root)).toEqual([]);
  });

  it('generates the defaults into the field models and the table columns (the column is added with it), and nowhere for a field without one', async () => {
    const root = writeDefinitions({ 'notes.ts': notes });
    const { files } = await generate(root);
    const model = files.find((file) => file.path === 'generated/models/notes.ts')!.text;
    for (const literal of ["default: 'untitled',", "default: 'fr-FR',", 'default: false,']) {
      // Once in the field's model, once in its column.
      expect(model.split(literal).length - 1, literal).toBe(2);
    }
    expect(model.match(/default:/g)).toHaveLength(6);
    const document = JSON.parse(files.find((file) => file.path === 'generated/openapi/v1.json')!.text) as {
      components: {
        schemas: Record<
          string,
          { required?: string[]; properties: Record<string, { default?: unknown; description?: string }> }
        >;
      };
    };
    const write = document.components.schemas.NoteV1Write!;
    expect(write.required).toBeUndefined();
    // Said in the description, not as `default` (which generic client generators read as always present).
    expect(
      Object.fromEntries(Object.entries(write.properties).map(([name, schema]) => [name, schema.description])),
    ).toEqual({
      title: 'Left out, it is "untitled".',
      lang: 'Left out, it is "fr-FR".',
      pinned: 'Left out, it is false.',
      body: undefined,
    });
    expect(JSON.stringify(write)).not.toContain('"default"');
    expect(JSON.stringify(document.components.schemas.NoteV1Patch)).not.toContain('"default"');
  });
});
