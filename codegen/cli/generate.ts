import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from '../generate.ts';
import { formatDiagnostic, lintLoaded } from '../lint/index.ts';
import { DefinitionLoadError, loadDefinitions, type LoadedDefinition } from '../load/load-definitions.ts';
import { describeDiff, publishVersions, PUBLISHED_FILE, versionDiffs } from '../versions/index.ts';
import { inputsHash, outputsHash, outputsHashOnDisk, readStamp, STAMP_FILE, stampText } from '../stamp.ts';

/**
 * `npm run generate [-- --check] [-- --root DIR] [-- --publish vN]`: writes generated/ from
 * definitions/, removing files no definition produces any more, and prints the differences between
 * consecutive versions. With --check, writes nothing and exits 1 naming every stale, missing or
 * extra file. --publish records the shape of a version in published-versions.json, after which lint
 * refuses changes to it.
 */
export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      check: { type: 'boolean', default: false },
      root: { type: 'string', default: process.cwd() },
      publish: { type: 'string', multiple: true, default: [] },
    },
  });
  const root = values.root;
  if (values.check && values.publish.length === 0) {
    const stamp = readStamp(root);
    if (stamp !== undefined && stamp.inputs === inputsHash(root) && stamp.outputs === outputsHashOnDisk(root)) {
      console.log('generated/ is up to date (stamp: nothing generation reads or wrote has changed)');
      return 0;
    }
  }
  let definitions: LoadedDefinition[];
  try {
    definitions = await loadDefinitions(root);
  } catch (error) {
    if (!(error instanceof DefinitionLoadError)) throw error;
    console.error(`${error.message}\ngenerate: fix the definition first (npm run lint:definitions)`);
    return 1;
  }
  const diagnostics = lintLoaded(root, definitions);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) {
    for (const diagnostic of errors) console.error(formatDiagnostic(diagnostic));
    console.error(`generate: the definitions have ${errors.length} error(s); fix them first (npm run lint:definitions)`);
    return 1;
  }
  const generation = await generate(root, definitions);
  const { model } = generation;
  const stamp = { inputs: inputsHash(root), outputs: outputsHash(generation.files.map((file) => [file.path, file.text] as const)) };
  const files = [...generation.files, { path: STAMP_FILE, text: stampText(stamp) }];
  if (values.publish.length > 0) {
    const recorded = publishVersions(root, model, values.publish);
    console.log(`published (${PUBLISHED_FILE}): ${recorded.join(', ') || 'nothing: no declaration serves those versions'}`);
  }
  for (const diff of versionDiffs(model)) console.log(`${diff.declaration} ${diff.from} → ${diff.to}: ${describeDiff(diff).join('; ')}`);
  const wanted = new Map(files.map((file) => [file.path, file.text]));
  const existing = listFiles(join(root, 'generated')).map((file) => relative(root, file).split(sep).join('/'));
  const stale = files.filter((file) => !existsSync(join(root, file.path)) || readFileSync(join(root, file.path), 'utf8') !== file.text);
  const extra = existing.filter((path) => !wanted.has(path));

  if (values.check) {
    // The stamp only speeds the check up; it is never a reason to fail it.
    const staleFiles = stale.filter((file) => file.path !== STAMP_FILE);
    if (staleFiles.length === 0 && extra.length === 0) {
      if (stale.length > 0) console.log('(the stamp is outdated: `npm run generate` refreshes it and makes this check fast again)');
      console.log(`generated/ is up to date (${files.length} files)`);
      return 0;
    }
    for (const file of staleFiles) console.error(`stale: ${file.path}`);
    for (const path of extra) console.error(`not produced by any definition: ${path}`);
    console.error('generated/ does not match definitions/: run `npm run generate` and commit the result');
    return 1;
  }
  for (const file of stale) {
    mkdirSync(dirname(join(root, file.path)), { recursive: true });
    writeFileSync(join(root, file.path), file.text);
  }
  for (const path of extra) rmSync(join(root, path));
  console.log(`generated ${files.length} files: ${stale.length} written, ${extra.length} removed`);
  return 0;
}

function listFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
