import { printStructure, StructureKind, type StatementStructures } from 'ts-morph';

/** One file the generator writes: a path relative to the project root and its full text. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
  /**
   * The text already encoded, in pieces, when the emitter made it so (an OpenAPI document, see
   * prettyJsonBytes()): the writer compares, hashes and writes these instead of encoding `text`.
   */
  readonly bytes?: readonly Buffer[];
}

/**
 * Builds one file from ts-morph statement structures, printed with fixed settings (two-space
 * indentation, single quotes), so the same structures always give the same bytes. The structures
 * are printed straight to text (ts-morph's printStructure): no source file is created and parsed,
 * which was a third of the generator's time. The emitters write code already laid out as the
 * TypeScript formatter would (the golden tests hold them to it), so no formatting pass runs.
 */
export class SourceFileBuilder {
  build(path: string, header: string, statements: readonly (string | StatementStructures)[]): GeneratedFile {
    const text = spaceTopLevel(
      printStructure({ kind: StructureKind.SourceFile, statements: [header, ...statements] }, PRINT_OPTIONS),
    );
    return { path, text: text.endsWith('\n') ? text : `${text}\n` };
  }
}

const PRINT_OPTIONS = { indentNumberOfSpaces: 2, useSingleQuote: true, newLine: '\n' } as const;

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
      if (
        afterHeader ||
        afterImports ||
        (afterBlock && !(previous.startsWith('import ') && line.startsWith('import ')))
      )
        out.push('');
    }
    out.push(line);
  }
  return out.join('\n');
}
