import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Diagnostic } from '../lint/diagnostic.ts';

/**
 * The texts of the files diagnostics point into, each file read once: its lines (for the offending
 * line a diagnostic shows) and where each starts (for a diagnostic placed by offset).
 */
export class SourceLines {
  readonly #texts = new Map<string, { lines: string[]; starts: number[] }>();

  /** The file's lines, without their line ends. */
  of(path: string): string[] {
    return this.#text(path).lines;
  }

  /** Line and column, from 1, of an offset in UTF-16 units (as tsgo's positions are). */
  placeOf(path: string, offset: number): { line: number; column: number } {
    const { starts } = this.#text(path);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  }

  #text(path: string): { lines: string[]; starts: number[] } {
    let text = this.#texts.get(path);
    if (text === undefined) {
      const whole = readFileSync(path, 'utf8');
      const starts = [0];
      for (let at = whole.indexOf('\n'); at >= 0; at = whole.indexOf('\n', at + 1)) starts.push(at + 1);
      text = { lines: whole.split('\n').map((line) => line.replace(/\r$/, '')), starts };
      this.#texts.set(path, text);
    }
    return text;
  }
}

/** Where tsgo places a diagnostic in a definition file (line and column from 1, columns in UTF-16 units), and what it says. */
export interface CheckedPlace {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly error: boolean;
  /** `TS<code>: <message>`, the messages it chains joined by spaces. */
  readonly message: string;
}

/** A type-check diagnostic at a place in a definition file, spanning the token there. */
export function fileDiagnostic(
  root: string,
  lines: SourceLines,
  place: CheckedPlace,
): Diagnostic & { message: string } {
  const sourceLine = lines.of(place.path)[place.line - 1] ?? '';
  // The token at the position (an identifier, a keyword, a string): tsgo gives its start only.
  const token = /^(?:[\w$]+|'[^']*'|"[^"]*"|.)/.exec(sourceLine.slice(place.column - 1))?.[0] ?? '';
  return {
    rule: 'type-check',
    severity: place.error ? 'error' : 'warning',
    message: place.message,
    file: relative(root, place.path).split(sep).join('/'),
    line: place.line,
    column: place.column,
    endLine: place.line,
    endColumn: place.column + token.length,
    sourceLine,
  };
}

/** A type-check diagnostic of no file (the configuration, the compiler's options): reported at tsconfig.json. */
export function globalDiagnostic(error: boolean, message: string): Diagnostic & { message: string } {
  return {
    rule: 'type-check',
    severity: error ? 'error' : 'warning',
    message,
    file: 'tsconfig.json',
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    sourceLine: '',
  };
}
