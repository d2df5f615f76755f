import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Node as MorphNode, Project, SourceFile } from 'ts-morph';
import { DocumentPositions } from '../document/index.ts';
import type { Finding } from './finding.ts';

/**
 * ts-morph, loaded on the first finding to place: a clean lint (the common case, and CI's) never
 * pays for loading it.
 */
let morph: typeof import('ts-morph') | undefined;
const tsMorph = (): typeof import('ts-morph') =>
  (morph ??= createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph'));

export interface Position {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly sourceLine: string;
}

/**
 * Finds where a property of a declaration is written: parses the definition file with ts-morph,
 * starts at the object passed to the default-exported builder call, and follows the property path
 * through nested object literals, builder calls (`field.object({...})`, `shape({...})`, an array's item) and local
 * constants. When the path cannot be followed (a spread, a value from another file) it stops at the
 * nearest property it found, so the position is always inside the declaration.
 */
export class DeclarationLocator {
  readonly #root: string;
  // Created on the first finding to place: a clean lint never pays for a ts-morph project.
  #project: Project | undefined;
  readonly #files = new Map<string, SourceFile>();
  readonly #documents = new Map<string, DocumentPositions>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Where a finding is: in a definition (a .ts file), or in a JSON file such as published-versions.json. */
  locate(finding: Finding): Position {
    if (finding.source.endsWith('.json')) return this.#document(finding.source).spanOf(finding.at);
    return this.locateInDefinition(
      join(this.#root, finding.source),
      finding.at,
      finding.argument ?? false,
      finding.text,
    );
  }

  /** The text of one line of a file of the project (1-based), '' past its end. */
  lineOf(file: string, line: number): string {
    return readFileSync(join(this.#root, file), 'utf8').split('\n')[line - 1]?.replace(/\r$/, '') ?? '';
  }

  #document(file: string): DocumentPositions {
    let document = this.#documents.get(file);
    if (document === undefined) {
      document = new DocumentPositions(readFileSync(join(this.#root, file), 'utf8'));
      this.#documents.set(file, document);
    }
    return document;
  }

  locateInDefinition(absolutePath: string, path: readonly string[], argument = false, text?: string): Position {
    const { Node, SyntaxKind } = tsMorph();
    const file = this.#file(absolutePath);
    let node: MorphNode | undefined = defaultExportObject(file);
    let at: MorphNode = node ?? file.getDefaultExportSymbol()?.getDeclarations()[0] ?? file;
    let within: MorphNode = at;
    for (const key of path) {
      // An element of an array literal (`scopes: { POST: ['notes:write'] }`): the path names its index.
      const array = node === undefined ? undefined : unwrap(node)?.asKind(SyntaxKind.ArrayLiteralExpression);
      if (array !== undefined) {
        const element = /^[0-9]+$/.test(key) ? array.getElements()[Number(key)] : undefined;
        if (element === undefined) break;
        at = element;
        node = element;
        continue;
      }
      // field.array(item, options): the model's `items` is the call's first argument.
      const call = node === undefined ? undefined : unwrap(node)?.asKind(SyntaxKind.CallExpression);
      if (key === 'items' && call !== undefined && call.getArguments()[0] !== undefined) {
        at = call.getArguments()[0]!;
        within = at;
        node = at;
        continue;
      }
      const object: MorphNode | undefined = node === undefined ? undefined : objectOf(node);
      const property = object?.asKind(SyntaxKind.ObjectLiteralExpression)?.getProperty(key);
      // field.object({ ... }) takes its fields directly: the model's path says `fields`, the source does not.
      if (property === undefined && key === 'fields' && node !== undefined && Node.isCallExpression(unwrap(node)))
        continue;
      if (property === undefined) break;
      within = property;
      at =
        Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)
          ? property.getNameNode()
          : property;
      node = Node.isPropertyAssignment(property)
        ? property.getInitializer()
        : Node.isShorthandPropertyAssignment(property)
          ? resolveIdentifier(property.getNameNode())
          : undefined;
    }
    if (argument && node !== undefined) {
      const call = unwrap(node)?.asKind(SyntaxKind.CallExpression);
      const first = call?.getArguments()[0];
      if (first !== undefined) at = first;
    }
    const found = text === undefined ? -1 : within.getText().indexOf(text);
    const start = found >= 0 ? within.getStart() + found : at.getStart();
    const { line, column } = file.getLineAndColumnAtPos(start);
    const end = file.getLineAndColumnAtPos(found >= 0 ? start + text!.length : at.getEnd());
    return {
      line,
      column,
      endLine: end.line,
      endColumn: end.column,
      sourceLine: file.getFullText().split('\n')[line - 1] ?? '',
    };
  }

  #file(absolutePath: string): SourceFile {
    let file = this.#files.get(absolutePath);
    if (file === undefined) {
      this.#project ??= new (tsMorph().Project)({
        useInMemoryFileSystem: false,
        skipAddingFilesFromTsConfig: true,
        skipFileDependencyResolution: true,
      });
      file = this.#project.addSourceFileAtPath(absolutePath);
      this.#files.set(absolutePath, file);
    }
    return file;
  }
}

/** The object literal given to the builder call that the file exports as default. */
function defaultExportObject(file: SourceFile): MorphNode | undefined {
  const { Node } = tsMorph();
  const declaration = file.getDefaultExportSymbol()?.getDeclarations()[0];
  const expression = Node.isExportAssignment(declaration) ? declaration.getExpression() : undefined;
  return expression === undefined ? undefined : objectOf(expression);
}

/** The object literal a value stands for: itself, the first argument of a call, or a constant's initializer. */
function objectOf(node: MorphNode): MorphNode | undefined {
  const { Node } = tsMorph();
  const value = unwrap(node);
  if (value === undefined) return undefined;
  if (Node.isObjectLiteralExpression(value)) return value;
  if (Node.isCallExpression(value)) {
    const object = value.getArguments().find((argument) => Node.isObjectLiteralExpression(unwrap(argument)));
    return object === undefined ? undefined : unwrap(object);
  }
  return undefined;
}

/** Looks through parentheses, `as`/`satisfies` and local constants. */
function unwrap(node: MorphNode): MorphNode | undefined {
  const { Node } = tsMorph();
  let current: MorphNode | undefined = node;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    if (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isSatisfiesExpression(current))
      current = current.getExpression();
    else if (Node.isIdentifier(current)) current = resolveIdentifier(current);
    else return current;
  }
  return current;
}

function resolveIdentifier(identifier: MorphNode): MorphNode | undefined {
  const { Node } = tsMorph();
  const declaration = identifier.getSymbol()?.getDeclarations()[0];
  return Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
}
