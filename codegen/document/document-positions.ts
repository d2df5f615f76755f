import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';

/** A span in a text file, 1-based, as diagnostics carry it. */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly sourceLine: string;
}

/** A JSON or YAML syntax error, with its position. */
export interface DocumentSyntaxError extends Span {
  readonly message: string;
}

/**
 * A JSON or YAML document parsed with the `yaml` package (JSON is YAML's flow style), keeping every
 * node's source range, so a finding about `paths./Users.get` is placed at the line and column of that
 * key in the file as written.
 */
export class DocumentPositions {
  readonly #text: string;
  readonly #lines: LineCounter;
  readonly #document: Document.Parsed;

  constructor(text: string) {
    this.#text = text;
    this.#lines = new LineCounter();
    this.#document = parseDocument(text, { lineCounter: this.#lines, prettyErrors: false, uniqueKeys: false });
  }

  /** The document as plain data (undefined when it has errors). */
  value(): unknown {
    return this.#document.errors.length > 0 ? undefined : this.#document.toJS({ maxAliasCount: 100 });
  }

  errors(): DocumentSyntaxError[] {
    return this.#document.errors.map((error) => ({
      message: error.message.split('\n')[0]!,
      ...this.#span(error.pos[0], error.pos[1]),
    }));
  }

  /**
   * Where the member at `path` is written: its key when `on` is 'key' (the default; a member named
   * wrongly), its value otherwise. When the member is missing, the key of its nearest ancestor that
   * exists (a missing `responses` is reported at the operation's method), so a finding is always
   * placed inside the document.
   */
  spanOf(path: readonly (string | number)[], on: 'key' | 'value' = 'key'): Span {
    let node: unknown = this.#document.contents;
    // The deepest member found so far, by its key (or item): where a finding about a missing member goes.
    let nearest: YamlNode | undefined = node as YamlNode | undefined;
    let found: YamlNode | undefined;
    for (const [index, key] of path.entries()) {
      const last = index === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => (isScalar(item.key) ? String(item.key.value) : String(item.key)) === String(key),
        );
        if (pair === undefined) break;
        node = pair.value;
        nearest = (pair.key as YamlNode | null) ?? nearest;
        if (last) found = ((on === 'key' ? pair.key : pair.value) as YamlNode | null) ?? nearest;
      } else if (isSeq(node)) {
        const item = node.items[Number(key)];
        if (item === undefined) break;
        node = item;
        nearest = item as YamlNode;
        if (last) found = nearest;
      } else break;
    }
    const range = (path.length === 0 ? nearest : (found ?? nearest))?.range ?? [0, 0, 0];
    return this.#span(range[0], range[1]);
  }

  #span(start: number, end: number): Span {
    const from = this.#lines.linePos(start);
    const to = this.#lines.linePos(Math.max(start, end));
    const lineStart = this.#lines.lineStarts[from.line - 1] ?? 0;
    const lineEnd = this.#text.indexOf('\n', lineStart);
    return {
      line: from.line,
      column: from.col,
      endLine: to.line,
      endColumn: to.col,
      sourceLine: this.#text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).replace(/\r$/, ''),
    };
  }
}
