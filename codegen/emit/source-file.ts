import { IndentationText, Project, QuoteKind, type StatementStructures } from 'ts-morph';

/** One file the generator writes: a path relative to the project root and its full text. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

/**
 * Builds one file from ts-morph statement structures in an in-memory project and formats it with
 * fixed settings, so the same structures always give the same bytes.
 */
export class SourceFileBuilder {
  readonly #project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      useTrailingCommas: true,
    },
  });

  build(path: string, header: string, statements: readonly (string | StatementStructures)[]): GeneratedFile {
    const file = this.#project.createSourceFile(path, { statements: [header, ...statements] }, { overwrite: true });
    const project = this.#project;
    let text: string | undefined;
    // Formatted on first read, after every file of the run exists: the language service then builds
    // its program once, instead of once per file as formatting each file in place would.
    return {
      path,
      get text() {
        if (text === undefined) {
          const formatted = project.getLanguageService().getFormattedDocumentText(file.getFilePath(), FORMAT_SETTINGS);
          text = spaceTopLevel(formatted.endsWith('\n') ? formatted : `${formatted}\n`);
        }
        return text;
      },
    };
  }
}

const FORMAT_SETTINGS = { indentSize: 2, tabSize: 2, convertTabsToSpaces: true, ensureNewLineAtEndOfFile: true } as const;

/**
 * One blank line after the header and the imports, and between top-level declarations, as a person
 * would lay the file out (the TypeScript formatter leaves vertical space as it finds it).
 */
export function spaceTopLevel(text: string): string {
  const lines = text.replace(/\n{3,}/g, '\n\n').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    const previous = out.at(-1);
    const topLevel = line !== '' && !/^[\s})\]]/.test(line);
    if (previous !== undefined && previous !== '' && topLevel) {
      const afterHeader = previous.startsWith('//') && !line.startsWith('//');
      const afterImports = previous.startsWith('import ') && !line.startsWith('import ');
      const afterBlock = /^[})\]]/.test(previous) || previous.endsWith(';');
      if (afterHeader || afterImports || (afterBlock && !(previous.startsWith('import ') && line.startsWith('import ')))) out.push('');
    }
    out.push(line);
  }
  return out.join('\n');
}
