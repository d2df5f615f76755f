import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resolve } from 'node:path';
import { command, UsageError } from '@convapi/runtime/cli';
import type { Generation } from '../generate.ts';
import type { LintOptions } from '../lint/index.ts';
import type { LoadedDefinition } from '../load/load-definitions.ts';
import { GENERATED_TYPES_FILE } from '../typecheck/check-config.ts';
import { StagedWriter } from './staged-writer.ts';
import { inputsHash, outputsHash, outputsHashOnDisk, readStamp, STAMP_FILE, stampText } from '../stamp.ts';

export const USAGE = `usage: npm run generate -- [options]
  --root DIR        project root: reads DIR/definitions/, writes DIR/generated/ (default: the current folder)
  --check           write nothing; exit 1 naming every stale, missing or extra file of generated/
  --publish vN      record the shape of version vN in published-versions.json (repeatable); lint then
                    refuses changes to it, and the removal of what declares it
  --watch           regenerate and re-lint on every change under definitions/ (and published-versions.json),
                    printing the diagnostics or what was written; Ctrl-C ends it
  --help            this text
exit status: 0 done (or up to date), 1 the definitions have errors or generated/ is stale (--check),
             2 a usage error or no definitions/ folder`;

/**
 * `npm run generate`: lints the definitions (type check included) and, when they have no error,
 * writes generated/ from them, removing files no definition produces any more, and prints the
 * differences between consecutive versions. With --check, writes nothing and exits 1 naming every
 * stale, missing or extra file.
 */
export const run = command({
  name: 'generate',
  usage: USAGE,
  options: {
    check: { type: 'boolean', default: false },
    root: { type: 'string' },
    publish: { type: 'string', multiple: true, default: [] },
    watch: { type: 'boolean', default: false },
  },
  main: ({ values }) => {
    const root = resolve(values.root ?? process.cwd());
    if (values.watch && (values.check || values.publish.length > 0))
      throw new UsageError('--watch regenerates on every change; it does not combine with --check or --publish');
    if (!values.watch) return generateOnce(root, { check: values.check, publish: values.publish });
    return watchAndGenerate(root);
  },
});

/**
 * `generate --watch`: one generation per change, type-checked by one tsgo process kept for the
 * watcher's life (it holds what it parsed between changes), ended with the watcher.
 */
async function watchAndGenerate(root: string): Promise<number> {
  const [{ watchDefinitions }, { residentTypeChecker }] = await Promise.all([
    import('./watch.ts'),
    import('../typecheck/resident-type-check.ts'),
  ]);
  const checker = residentTypeChecker();
  try {
    return await watchDefinitions(root, (lint) =>
      generateOnce(root, { check: false, publish: [], lint: { ...lint, typeCheck: checker.check }, listWritten: true }),
    );
  } finally {
    await checker.close();
  }
}

/** One generation (or check) of a project; its exit code. */
export async function generateOnce(
  root: string,
  options: { check: boolean; publish: readonly string[]; lint?: LintOptions; listWritten?: boolean },
): Promise<number> {
  if (options.check && options.publish.length === 0) {
    const stamp = readStamp(root);
    if (stamp !== undefined && stamp.inputs === inputsHash(root) && stamp.outputs === outputsHashOnDisk(root)) {
      console.log('generated/ is up to date (stamp: nothing generation reads or wrote has changed)');
      return 0;
    }
  }
  // The generator, the linter and what they load (ts-morph, TypeScript, openapi-typescript) are
  // imported only now: an unchanged tree is confirmed from the stamp without them.
  const [
    { generate },
    { formatDiagnostic, lintProject },
    { describeDiff, publishVersions, PUBLISHED_FILE, versionDiffs },
  ] = await Promise.all([import('../generate.ts'), import('../lint/index.ts'), import('../versions/index.ts')]);
  // The files are built in memory while the type check runs, compared with generated/ as they come,
  // and written (from then on as they come) only once the lint is clean; --check writes nothing.
  const writer = new StagedWriter(root);
  let building: Promise<Generation> | undefined;
  // The generated types the definitions are checked against when generated/'s are older: they come
  // with the first stage of files, long before the whole generation is done.
  let generatedTypes: Promise<string | undefined> = Promise.resolve(undefined);
  const whileTypeChecking = (loaded: readonly LoadedDefinition[]) => {
    let found: (text: string | undefined) => void = () => undefined;
    generatedTypes = new Promise((resolve) => (found = resolve));
    building = generate(root, loaded, (files) => {
      const types = files.find((file) => file.path === GENERATED_TYPES_FILE);
      if (types !== undefined) found(types.text);
      writer.add(files);
    });
    // Definitions with errors may not generate at all: that failure is the lint's to report.
    building.then(
      () => found(undefined),
      () => found(undefined),
    );
  };
  const { diagnostics, definitions } = await lintProject(root, {
    ...options.lint,
    whileTypeChecking,
    generatedTypes: () => generatedTypes,
  });
  // A change with no migration yet does not stop generation (the migration is written once the
  // definition is right), only the check: CI and `npm start` refuse it.
  const waiting = options.check ? [] : diagnostics.filter((diagnostic) => diagnostic.rule === 'migration-missing');
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error' && !waiting.includes(diagnostic));
  for (const diagnostic of waiting)
    console.error(
      `${formatDiagnostic(diagnostic)}\n  (generated anyway: write the migration before starting the server)`,
    );
  if (errors.length > 0 || definitions === undefined) {
    for (const diagnostic of errors) console.error(formatDiagnostic(diagnostic));
    console.error(
      `generate: the definitions have ${errors.length} error(s); fix them first (npm run lint:definitions)`,
    );
    return 1;
  }
  if (!options.check) writer.allow();
  const generation = await (building ?? generate(root, definitions, (files) => writer.add(files)));
  const { model } = generation;
  // Generated while a migration is missing: no stamp vouches for these inputs, so the check lints them (and fails).
  const inputs = waiting.length > 0 ? 'a migration is missing' : inputsHash(root);
  const stamp = {
    inputs,
    outputs: outputsHash(generation.files.map((file) => [file.path, writer.bytesOf(file)] as const)),
  };
  const stampFile = { path: STAMP_FILE, text: stampText(stamp) };
  writer.add([stampFile]);
  const files = [...generation.files, stampFile];
  if (options.publish.length > 0) {
    const recorded = publishVersions(root, model, options.publish);
    console.log(
      `published (${PUBLISHED_FILE}): ${recorded.join(', ') || 'nothing: no declaration serves those versions'}`,
    );
  }
  for (const diff of versionDiffs(model))
    console.log(`${diff.declaration} ${diff.from} → ${diff.to}: ${describeDiff(diff).join('; ')}`);
  const wanted = new Set(files.map((file) => file.path));
  const existing = listFiles(join(root, 'generated')).map((file) => relative(root, file).split(sep).join('/'));
  const stale = [...writer.stale].sort((a, b) => a.path.localeCompare(b.path));
  const extra = existing.filter((path) => !wanted.has(path));

  if (options.check) {
    // The stamp only speeds the check up; it is never a reason to fail it.
    const staleFiles = stale.filter((file) => file.path !== STAMP_FILE);
    if (staleFiles.length === 0 && extra.length === 0) {
      if (stale.length > 0)
        console.log('(the stamp is outdated: `npm run generate` refreshes it and makes this check fast again)');
      console.log(`generated/ is up to date (${files.length} files)`);
      return 0;
    }
    for (const file of staleFiles) console.error(`stale: ${file.path}`);
    for (const path of extra) console.error(`not produced by any definition: ${path}`);
    console.error('generated/ does not match definitions/: run `npm run generate` and commit the result');
    return 1;
  }
  await writer.done();
  for (const path of extra) rmSync(join(root, path));
  console.log(`generated ${files.length} files: ${stale.length} written, ${extra.length} removed`);
  if (options.listWritten === true) {
    for (const file of stale) console.log(`  written ${file.path}`);
    for (const path of extra) console.log(`  removed ${path}`);
  }
  return 0;
}

function listFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

if (import.meta.main) process.exitCode = await run(process.argv.slice(2));
