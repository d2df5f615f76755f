/** What `convapi init` adds to a project's package.json. */

/**
 * The Node line every script runs on: installed as the dependency `node`, whatever the machine has.
 * A dependency, not a devDependency: a production install (`npm ci --omit=dev`) keeps it, so
 * `npm start` runs the same Node there.
 */
export const NODE_PIN = '^24.9.0';
/** The TypeScript the project's `tsc --noEmit` uses; the generator is tested with the same line. */
export const TYPESCRIPT_RANGE = '~5.9.3';

export type Manifest = Record<string, unknown>;

/** The scripts of the contract: the same commands as the toolkit's own example project. */
export function projectScripts(): Record<string, string> {
  return {
    // `exec`: npm forwards SIGTERM/SIGINT to the shell it runs a script with, and dash (Debian's sh)
    // neither passes them on nor replaces itself with the command: without exec the server never
    // hears the signal and keeps running after npm has died of it. --import: the runtime's Node check
    // runs before generated/main.ts is loaded (a Node too old to read .ts gets one line, not a stack).
    // with-allocator.sh (the runtime's): the server runs on jemalloc where the machine has it, else
    // on glibc's malloc told to map large blocks on their own, so a burst's memory goes back to the
    // system once freed (allocators read their settings only as the process starts; docs/production.md).
    // --max-semi-space-size=8: V8 grows the young generation to 16 MiB a semi-space while start-up
    // loads every module, and never shrinks it; a server's requests live far shorter than that needs.
    start:
      'exec sh node_modules/@convapi/runtime/bin/with-allocator.sh node --max-semi-space-size=8 --import @convapi/runtime/node-check generated/main.ts',
    generate: 'convapi generate',
    'lint:definitions': 'convapi lint',
    // The CLI's other commands, as the docs write them: `npm run convapi -- migrate new NAME`.
    convapi: 'convapi',
    token: 'convapi-token',
    test: 'tsc --noEmit && convapi generate --check && convapi lint',
  };
}

/** Dependencies by section; `toolkitVersion` is the version of the toolkit's packages (they are released together). */
export function projectDependencies(toolkitVersion: string): {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
} {
  const toolkit = `^${toolkitVersion}`;
  return {
    // What the server needs at run time: a production install (`npm ci --omit=dev`) has no ts-morph.
    // openapi-fetch: the calls of the typed client generated/client/index.ts (its types come from the documents).
    dependencies: {
      '@convapi/runtime': toolkit,
      '@convapi/dsl': toolkit,
      koa: '^3.0.0',
      node: NODE_PIN,
      'openapi-fetch': '^0.17.0',
      zod: '^4.0.0',
    },
    devDependencies: { '@convapi/cli': toolkit, '@types/node': '^24.0.0', typescript: TYPESCRIPT_RANGE },
  };
}

/** The test script `npm init` writes: a placeholder, not a choice of the project's, so init replaces it. */
const NPM_INIT_TEST_SCRIPT = 'echo "Error: no test specified" && exit 1';

export interface ManifestPlan {
  /** The package.json to write. */
  readonly manifest: Manifest;
  /** Scripts the project already has with another command: overwriting them needs --force. */
  readonly conflicts: string[];
  /** Changes worth telling the user about (made whatever --force says). */
  readonly notes: string[];
}

/**
 * The project's package.json with the toolkit added. A dependency the project already lists is kept
 * as it is (it may be a tarball or a newer version); a script it already has with another command is
 * a conflict, replaced only when `force` is set.
 */
export function planManifest(
  existing: Manifest | undefined,
  name: string,
  toolkitVersion: string,
  force: boolean,
): ManifestPlan {
  const manifest: Manifest = existing === undefined ? { name, version: '0.1.0', private: true } : { ...existing };
  const notes: string[] = [];
  // Definitions and generated code are ES modules; Node reads .ts files by the package's type.
  if (manifest.type !== undefined && manifest.type !== 'module')
    notes.push(
      `package.json "type" set to "module" (was ${JSON.stringify(manifest.type)}): definitions and generated code are ES modules`,
    );
  manifest.type = 'module';
  const conflicts: string[] = [];
  const scripts = { ...asStrings(manifest.scripts) };
  for (const [script, command] of Object.entries(projectScripts())) {
    const placeholder = script === 'test' && scripts[script] === NPM_INIT_TEST_SCRIPT;
    if (scripts[script] !== undefined && scripts[script] !== command && !placeholder) {
      conflicts.push(`scripts.${script} ("${scripts[script]}")`);
      if (!force) continue;
    }
    scripts[script] = command;
  }
  manifest.scripts = scripts;
  const wanted = projectDependencies(toolkitVersion);
  for (const section of ['dependencies', 'devDependencies'] as const) {
    const listed = { ...asStrings(manifest[section]) };
    for (const [dependency, range] of Object.entries(wanted[section])) {
      if (!(dependency in listed) && !(dependency in asStrings(manifest[other(section)]))) listed[dependency] = range;
    }
    manifest[section] = sorted(listed);
  }
  // npm 11 runs install scripts only of packages a project allows: the `node` pin needs its own;
  // @scarf/scarf (a dependency of the docs page's swagger-ui-dist) would only send usage analytics.
  manifest.allowScripts = {
    ...(asRecord(manifest.allowScripts) as Record<string, unknown>),
    node: true,
    '@scarf/scarf': false,
  };
  return { manifest, conflicts, notes };
}

function other(section: 'dependencies' | 'devDependencies'): 'dependencies' | 'devDependencies' {
  return section === 'dependencies' ? 'devDependencies' : 'dependencies';
}

function asStrings(value: unknown): Record<string, string> {
  return asRecord(value) as Record<string, string>;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
