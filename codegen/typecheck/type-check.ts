import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import type { Diagnostic } from '../lint/diagnostic.ts';

/**
 * The compiler options definitions are checked with: the project's tsconfig.json when it has one (so
 * its strictness and types apply), else the settings the toolkit's own projects use. Either way
 * nothing is emitted and declaration files of libraries are not checked: only definitions/ is.
 */
export function compilerOptions(root: string): ts.CompilerOptions {
  const defaults: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2024,
    // ES modules whatever the nearest package.json says (a project without one is still ESM to Node).
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    verbatimModuleSyntax: true,
    allowImportingTsExtensions: true,
    // The language only: no DOM, no @types (a definition is data; the project's tsconfig can add more).
    lib: ['lib.es2024.d.ts'],
    types: [],
  };
  const file = join(root, 'tsconfig.json');
  if (!existsSync(file)) return { ...defaults, ...CHECK_ONLY };
  const read = ts.readConfigFile(file, ts.sys.readFile);
  // Only the options: definitions/ is the one input, whatever the project's include says.
  const parsed = ts.parseJsonConfigFileContent({ ...read.config, include: [], files: [] }, ts.sys, root, undefined, file);
  return { ...defaults, ...parsed.options, ...CHECK_ONLY };
}

const CHECK_ONLY: ts.CompilerOptions = { noEmit: true, skipLibCheck: true, incremental: false, composite: false, declaration: false };

/** One program over the definition files, kept so a watcher can build the next one from it. */
export interface TypeCheck {
  readonly diagnostics: Diagnostic[];
  readonly program: ts.Program;
}

/**
 * Type-checks the given definition files (absolute paths) and returns TypeScript's own diagnostics
 * for them, at their real file:line:col, as lint diagnostics of rule `type-check`: a syntax error,
 * a misspelt builder option (`field.string({ requird: true })`), a wrong type. Files outside the list
 * (the DSL, zod) are read for their types but not reported on.
 */
export function typeCheck(root: string, files: readonly string[], previous?: ts.Program): TypeCheck {
  const program = ts.createProgram({ rootNames: files, options: compilerOptions(root), ...(previous === undefined ? {} : { oldProgram: previous }) });
  const wanted = new Set(files.map((file) => file.split(sep).join('/')));
  const diagnostics: Diagnostic[] = [];
  for (const sourceFile of program.getSourceFiles()) {
    if (!wanted.has(sourceFile.fileName)) continue;
    const syntactic = program.getSyntacticDiagnostics(sourceFile);
    // A file that does not parse has no meaningful types: its syntax errors are the cause to report.
    const found = syntactic.length > 0 ? syntactic : program.getSemanticDiagnostics(sourceFile);
    for (const diagnostic of found) diagnostics.push(toDiagnostic(root, sourceFile, diagnostic));
  }
  return { diagnostics, program };
}

function toDiagnostic(root: string, sourceFile: ts.SourceFile, diagnostic: ts.Diagnostic): Diagnostic {
  const start = diagnostic.start ?? 0;
  const end = start + (diagnostic.length ?? 0);
  const from = sourceFile.getLineAndCharacterOfPosition(start);
  const to = sourceFile.getLineAndCharacterOfPosition(end);
  const text = sourceFile.getFullText();
  const lineStarts = sourceFile.getLineStarts();
  const sourceLine = text.slice(lineStarts[from.line], lineStarts[from.line + 1] ?? text.length).replace(/\r?\n$/, '');
  return {
    rule: 'type-check',
    severity: diagnostic.category === ts.DiagnosticCategory.Error ? 'error' : 'warning',
    message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
    file: relative(root, sourceFile.fileName).split(sep).join('/'),
    line: from.line + 1,
    column: from.character + 1,
    endLine: to.line + 1,
    endColumn: to.character + 1,
    sourceLine,
  };
}
