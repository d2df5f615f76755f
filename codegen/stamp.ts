import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

/**
 * generated/stamp.json: a hash of everything generation reads (definitions, migrations, the DSL and generator
 * packages, published shapes, the lockfile that pins zod and ts-morph) and of everything it wrote. Generation is deterministic, so
 * when both hashes still match, generated/ is what the definitions produce and `generate --check`
 * can say so without generating. It only ever speeds the check up: on any mismatch the check
 * generates and compares file by file, and the stamp itself is never reported stale.
 */
export const STAMP_FILE = 'generated/stamp.json';

const INPUT_FOLDERS = ['definitions', 'migrations'];
const INPUT_FILES = ['package-lock.json', 'published-versions.json'];
/** The packages whose code decides what is generated, wherever the project has them installed. */
const INPUT_PACKAGES = ['@convapi/cli', '@convapi/dsl'];
/**
 * Run from its TypeScript sources (this repository), a package's dist/ is a stale build, not an
 * input; run from an installed tarball, dist/ is all there is.
 */
const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

export interface Stamp {
  readonly inputs: string;
  readonly outputs: string;
}

function filesUnder(root: string, folder: string, skip: (path: string) => boolean = () => false): string[] {
  const absolute = join(root, folder);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !skip(path));
}

/** Each input package's files, named `<package>/<path>` so the hash does not depend on where it is installed. */
function packageInputs(root: string): Array<readonly [string, Buffer]> {
  const require = createRequire(join(root, 'package.json'));
  return INPUT_PACKAGES.flatMap((name) => {
    const folder = dirname(require.resolve(`${name}/package.json`));
    const skip = (path: string) =>
      path.startsWith('node_modules/') || (RUNNING_FROM_SOURCES && path.startsWith('dist/'));
    return filesUnder(folder, '.', skip).map((path) => [`${name}/${path}`, readFileSync(join(folder, path))] as const);
  });
}

/**
 * SHA-1: the stamp only has to change when a file does, nobody is trying to forge one, and it hashes
 * twice as fast as SHA-256 here (generate and --check hash every generated file: 58 MB for 1,000
 * collections, most of it their OpenAPI document).
 */
const STAMP_HASH = 'sha1';

/** A file's content: its text, its bytes, or its bytes in pieces (hashed as the pieces joined). */
type Content = string | Buffer | readonly Buffer[];

function hashOf(entries: Iterable<readonly [string, Content]>): string {
  const hash = createHash(STAMP_HASH);
  for (const [path, content] of entries) {
    hash.update(path).update('\0');
    if (Array.isArray(content)) for (const piece of content as readonly Buffer[]) hash.update(piece);
    else hash.update(content as string | Buffer);
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The hash of every input of generation, as the files are now. */
export function inputsHash(root: string): string {
  const paths = [
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(root, folder)),
    ...INPUT_FILES.filter((file) => existsSync(join(root, file))),
  ];
  const inputs = [...paths.map((path) => [path, readFileSync(join(root, path))] as const), ...packageInputs(root)];
  return hashOf(inputs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The hash of generated files (path → text), the stamp left out. */
export function outputsHash(files: Iterable<readonly [string, Content]>): string {
  return hashOf([...files].filter(([path]) => path !== STAMP_FILE).sort(([a], [b]) => a.localeCompare(b)));
}

/** The hash of generated/ as it is on disk. */
export function outputsHashOnDisk(root: string): string {
  return outputsHash(filesUnder(root, 'generated').map((path) => [path, readFileSync(join(root, path))] as const));
}

export function readStamp(root: string): Stamp | undefined {
  const file = join(root, STAMP_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

export function stampText(stamp: Stamp): string {
  return `${JSON.stringify(stamp, null, 2)}\n`;
}
