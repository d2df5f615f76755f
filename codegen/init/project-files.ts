/**
 * The files `convapi init` writes besides package.json: the TypeScript settings generated code is
 * checked with, one example definition, and what git should leave out. Kept as text here so the
 * compiled CLI carries them (a tarball ships dist/ only).
 */

/**
 * Strict TypeScript over every .ts file of the project (definitions/, generated/ and the files written
 * by hand beside them; node_modules is left out by TypeScript itself), run by Node's type stripping
 * (no build step).
 */
export const TSCONFIG = `{
  "compilerOptions": {
    "target": "es2024",
    "lib": ["es2024"],
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "types": ["node"],
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "verbatimModuleSyntax": true,
    "erasableSyntaxOnly": true,
    "allowImportingTsExtensions": true,
    "resolveJsonModule": true,
    "isolatedModules": true,
    "skipLibCheck": true,
    "noEmit": true
  },
  "include": ["**/*.ts"]
}
`;

/** One collection to start from: `generate` then `start` serve it under /v1/notes. */
export const EXAMPLE_DEFINITION = `import { collection, field } from '@convapi/dsl';

/** Notes: a plural name, a server-assigned integer id, a required title and an optional text. */
export default collection({
  name: 'notes',
  identifier: { name: 'note_id', type: 'integer' },
  fields: {
    title: field.string({ required: true, minLength: 1, filterable: true, searchable: true }),
    text: field.string({ description: 'The body of the note.' }),
  },
  versions: { v1: {} },
});
`;

export const GITIGNORE = `node_modules/
data/
*.db
*.db-wal
*.db-shm
`;

/** Path (relative to the project root) → contents, in the order they are written. */
export const PROJECT_FILES: ReadonlyArray<readonly [string, string]> = [
  ['tsconfig.json', TSCONFIG],
  ['definitions/notes.ts', EXAMPLE_DEFINITION],
  ['.gitignore', GITIGNORE],
];
