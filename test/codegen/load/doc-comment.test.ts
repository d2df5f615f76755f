import { describe, expect, it } from 'vitest';
import { defaultExportDocComment } from '../../../codegen/load/doc-comment.ts';

const body = "collection({ name: 'orders', fields: {}, versions: { v1: {} } });\n";

describe('the doc comment above export default', () => {
  it.each([
    [
      'the comment right above it',
      `import { collection } from 'x';\n\n/** Orders: what a trade refers to. */\nexport default ${body}`,
      'Orders: what a trade refers to.',
    ],
    [
      'wrapped lines join, paragraphs stay, tags are left out',
      `/**\n * First line\n * goes on.\n *\n * Second paragraph.\n * @see elsewhere\n */\nexport default ${body}`,
      'First line goes on.\n\nSecond paragraph.',
    ],
    ['the last of two doc comments', `/** Not this. */\n/** This one. */\nexport default ${body}`, 'This one.'],
    ['none: a line comment is not a doc comment', `// Orders.\nexport default ${body}`, undefined],
    [
      'none: the doc comment belongs to a constant in between',
      `/** The fields. */\nconst fields = {};\nexport default ${body}`,
      undefined,
    ],
    [
      'export default inside a block comment before the real one',
      `/*\nexport default nothing\n*/\n/** The real one. */\nexport default ${body}`,
      'The real one.',
    ],
    [
      'export default inside a template string before the real one',
      `const text = \`\nexport default x\`;\n/** After the string. */\nexport default ${body}`,
      'After the string.',
    ],
  ])('%s', (_name, text, want) => {
    expect(defaultExportDocComment('definitions/orders.ts', text)).toBe(want);
  });
});
