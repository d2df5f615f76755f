import { StructureKind } from 'ts-morph';
import { fileHeader } from './header.ts';
import { RUNTIME_PACKAGE } from './packages.ts';
import { importPath } from './import-path.ts';
import type { GeneratedFile, SourceFileBuilder } from './source-file.ts';

/** generated/main.ts: `npm start` runs it; it serves the API with settings from the environment. */
export function emitMain(builder: SourceFileBuilder): GeneratedFile {
  const path = 'generated/main.ts';
  return builder.build(path, fileHeader(['every file in definitions/']), [
    { kind: StructureKind.ImportDeclaration, namedImports: ['serveFromEnvironment'], moduleSpecifier: RUNTIME_PACKAGE },
    { kind: StructureKind.ImportDeclaration, namedImports: ['api'], moduleSpecifier: './api.ts' },
    'await serveFromEnvironment(api, process.env);',
  ]);
}
