import { IndentationText, Project, QuoteKind, type StatementStructures } from 'ts-morph';

/** One file the generator writes: a path relative to the project root and its full text. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

/**
 * Builds one file from ts-morph statement structures in an in-memory project, printed with fixed
 * settings (two-space indentation, single quotes, trailing commas), so the same structures always
 * give the same bytes. The emitters write code already laid out as the TypeScript formatter would
 * (the golden tests hold them to it), so no formatting pass runs: it was most of the generator's time.
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
    const text = spaceTopLevel(file.getFullText());
    // Each file stands alone; dropping it keeps the in-memory project from growing with the run.
    this.#project.removeSourceFile(file);
    return { path, text: text.endsWith('\n') ? text : `${text}\n` };
  }
}

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
