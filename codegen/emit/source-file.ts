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
    file.formatText({ indentSize: 2, convertTabsToSpaces: true, ensureNewLineAtEndOfFile: true });
    const text = file.getFullText().replace(/\n{3,}/g, '\n\n');
    return { path, text: text.endsWith('\n') ? text : `${text}\n` };
  }
}
