import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AggregateDeclaration, CollectionDeclaration } from '@convapi/dsl';
import type { ServiceDeclaration, SettingDeclaration } from '@convapi/dsl';
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
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'DefinitionLoadError';
    this.file = file;
  }
}

const KINDS = new Set(['collection', 'aggregate', 'service', 'setting']);

/**
 * Imports every `definitions/*.ts` file of a project (sorted, so output never depends on the order the
 * file system lists them in) and takes its default export, which must be a declaration made with the
 * DSL builders.
 */
export async function loadDefinitions(root: string): Promise<LoadedDefinition[]> {
  const folder = join(root, 'definitions');
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort();
  const loaded: LoadedDefinition[] = [];
  for (const name of files) {
    const absolutePath = join(folder, name);
    const file = relative(root, absolutePath).split(sep).join('/');
    let module: { default?: unknown };
    try {
      module = (await import(pathToFileURL(absolutePath).href)) as { default?: unknown };
    } catch (error) {
      throw new DefinitionLoadError(file, `cannot be loaded: ${(error as Error).message}`);
    }
    const declaration = module.default as { kind?: unknown } | undefined;
    if (declaration === undefined || typeof declaration !== 'object' || !KINDS.has(String(declaration.kind))) {
      throw new DefinitionLoadError(
        file,
        'must export default one declaration made with collection(), aggregate(), service() or setting()',
      );
    }
    const docComment = defaultExportDocComment(absolutePath, readFileSync(absolutePath, 'utf8'));
    loaded.push({ file, absolutePath, declaration: declaration as Declaration, ...(docComment === undefined ? {} : { docComment }) });
  }
  return loaded;
}
