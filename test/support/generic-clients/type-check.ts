import ts from 'typescript';

/**
 * What strict TypeScript says of a folder's entry files, as a user's project would check them:
 * every error, formatted with its file and line; an empty list when there is none. The folder
 * resolves packages through its own node_modules.
 */
export function typeErrors(entries: readonly string[]): string[] {
  const program = ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2024,
    // What a project that runs in browsers and Node 24 names: the language, the DOM and its iterables.
    lib: ['lib.es2024.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) =>
    ts.formatDiagnostic(diagnostic, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => process.cwd(),
      getNewLine: () => '\n',
    }),
  );
}
