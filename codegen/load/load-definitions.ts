import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AggregateDeclaration, CollectionDeclaration } from '@convapi/dsl';
import type { ServiceDeclaration, SettingDeclaration } from '@convapi/dsl';
import { InputError } from '@convapi/runtime/cli';
import { defaultExportDocComment } from './doc-comment.ts';

export type Declaration = CollectionDeclaration | AggregateDeclaration | ServiceDeclaration | SettingDeclaration;

/** One definition file and the declaration it exports as default. */
export interface LoadedDefinition {
  /** Path relative to the project root, with forward slashes: `definitions/orders.ts`. */
  readonly file: string;
  readonly absolutePath: string;
  readonly declaration: Declaration;
  /** The doc comment above `export default`, if any: the declaration's description unless it sets one. */
  readonly docComment?: string;
}

export class DefinitionLoadError extends Error {
  readonly file: string;
  /** What is wrong, without the file name. */
  readonly reason: string;
  /** Where in the file, when the error's stack points into it (an exception thrown while it ran). */
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(file: string, reason: string, position?: { line: number; column: number }) {
    super(`${file}${position === undefined ? '' : `:${position.line}:${position.column}`}: ${reason}`);
    this.name = 'DefinitionLoadError';
    this.file = file;
    this.reason = reason;
    this.line = position?.line;
    this.column = position?.column;
  }
}

const KINDS = new Set(['collection', 'aggregate', 'service', 'setting']);

/**
 * The definition files of a project, sorted (so output never depends on the order the file system
 * lists them in), as paths relative to the root with forward slashes. A root without definitions/
 * is not a project: InputError.
 */
export function definitionFiles(root: string): string[] {
  const folder = join(root, 'definitions');
  if (!existsSync(folder))
    throw new InputError(`${folder}: no definitions/ folder here; run in the project root or pass --root DIR`);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort()
    .map((name) => relative(root, join(folder, name)).split(sep).join('/'));
}

/**
 * Imports every `definitions/*.ts` file of a project and takes its default export, which must be a
 * declaration made with the DSL builders. A file with no default export is a helper module (shared
 * fields, rules, constants the definitions import): it declares nothing and is left out. Throws the
 * first file's DefinitionLoadError.
 */
export async function loadDefinitions(root: string): Promise<LoadedDefinition[]> {
  const loaded: LoadedDefinition[] = [];
  for (const result of await loadEachDefinition(root)) {
    if (result instanceof DefinitionLoadError) throw result;
    loaded.push(result);
  }
  return loaded;
}

/** How loadEachDefinition() reads the files. */
export interface LoadOptions {
  /** A watcher's change count: the files are imported anew instead of from the module cache. */
  readonly revision?: number | undefined;
  /**
   * Read each file's doc comment (default true). Only the generated descriptions use it, and reading
   * it parses the file with TypeScript: `lint` alone skips it and never loads TypeScript.
   */
  readonly docComments?: boolean | undefined;
}

/**
 * Imports every definition file, each one's declaration or its DefinitionLoadError, in file order;
 * helper modules (no default export) give neither. The files are imported together, not one after
 * another: the module loader reads and resolves the next files while it compiles the ones already
 * read, instead of waiting on one file read at a time.
 */
export async function loadEachDefinition(
  root: string,
  files = definitionFiles(root),
  options: LoadOptions = {},
): Promise<(LoadedDefinition | DefinitionLoadError)[]> {
  const results = await Promise.all(
    files.map((file) =>
      loadDefinition(root, file, options).catch((error: unknown) => asLoadError(file, join(root, file), error)),
    ),
  );
  return results.filter((result) => result !== HELPER_MODULE);
}

/** What loadDefinition() answers for a file without a default export. */
const HELPER_MODULE = Symbol('helper module');

async function loadDefinition(
  root: string,
  file: string,
  { revision, docComments = true }: LoadOptions,
): Promise<LoadedDefinition | typeof HELPER_MODULE> {
  const absolutePath = join(root, file);
  const url = pathToFileURL(absolutePath).href;
  const module = (await import(revision === undefined ? url : `${url}?revision=${revision}`)) as { default?: unknown };
  if (!('default' in module)) return HELPER_MODULE;
  const declaration = module.default as { kind?: unknown } | undefined;
  if (declaration === undefined || typeof declaration !== 'object' || !KINDS.has(String(declaration.kind))) {
    throw new DefinitionLoadError(
      file,
      'must export default one declaration made with collection(), aggregate(), service() or setting()',
    );
  }
  const docComment = docComments
    ? defaultExportDocComment(absolutePath, readFileSync(absolutePath, 'utf8'))
    : undefined;
  return {
    file,
    absolutePath,
    declaration: declaration as Declaration,
    ...(docComment === undefined ? {} : { docComment }),
  };
}

function asLoadError(file: string, absolutePath: string, error: unknown): DefinitionLoadError {
  if (error instanceof DefinitionLoadError) return error;
  const message = (error as Error).message ?? String(error);
  return new DefinitionLoadError(
    file,
    `cannot be loaded: ${message.split('\n')[0]}`,
    positionInStack(absolutePath, error),
  );
}

/** The line and column of the first stack frame in the file itself (type stripping keeps positions). */
function positionInStack(absolutePath: string, error: unknown): { line: number; column: number } | undefined {
  const stack = String((error as Error).stack ?? '');
  const url = pathToFileURL(absolutePath).href;
  const at = stack.indexOf(`${url}:`);
  if (at < 0) return undefined;
  const match = /^:(\d+):(\d+)/.exec(stack.slice(at + url.length));
  return match === null ? undefined : { line: Number(match[1]), column: Number(match[2]) };
}
