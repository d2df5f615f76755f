import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type {
  Diagnostic as TsgoDiagnostic,
  DiagnosticCategory,
  Program,
} from '@typescript/native-preview/unstable/async';
import type { Diagnostic } from '../lint/diagnostic.ts';
import { writeCheckConfig } from './check-config.ts';
import { fileDiagnostic, globalDiagnostic, SourceLines } from './check-diagnostic.ts';
import { typeCheck, type TypeChecker } from './type-check.ts';
import { startTsgoServer, type TsgoServer } from './tsgo-server.ts';

/** A type checker that keeps one tsgo process between checks, until closed. */
export interface ResidentTypeChecker {
  readonly check: TypeChecker;
  /** Ends the tsgo process (the watcher's process cannot exit while it runs). */
  close(): Promise<void>;
}

export interface ResidentTypeCheckerOptions {
  /** What checks once tsgo's API has failed. Default: typeCheck(), tsgo's command line, as lint runs it. */
  readonly fallback?: TypeChecker;
  /** Told once, when tsgo's API fails and the fallback takes over. Default: standard error. */
  readonly warn?: (message: string) => void;
}

/**
 * For `generate --watch`: one tsgo process, started by the first check and kept, which holds what it
 * parsed (the libraries, zod, the DSL) from one check to the next. Each check tells it that any file
 * may have changed (it reads them again and parses only those that did: a definition file, a helper
 * module outside definitions/, a file that now exists where an import pointed) and asks for the
 * definition files' diagnostics, the same ones, at the same places, as the command line gives lint.
 * Why: tsgo started anew for each change parses some 300 files again, and a watcher's cycle waited on
 * that for most of its time (BENCHMARKS.md). It speaks tsgo's API
 * (`@typescript/native-preview/unstable/async`, pinned with the package; the differential test in
 * test/codegen/typecheck fails when an upgrade changes what it answers). Should the API fail, this
 * says so once and checks with the command line from then on.
 */
export function residentTypeChecker({
  fallback = typeCheck,
  warn = (message) => console.error(message),
}: ResidentTypeCheckerOptions = {}): ResidentTypeChecker {
  let server: Promise<TsgoServer> | undefined;
  /** Each configuration tsgo has open, and the files it lists. */
  const opened = new Map<string, string>();
  let failed = false;
  // One check at a time: each is a snapshot of the files as they were when it began.
  let previous: Promise<unknown> = Promise.resolve();

  const stop = async () => {
    const running = server;
    const configs = [...opened.keys()];
    server = undefined;
    opened.clear();
    if (running !== undefined) await (await running.catch(() => undefined))?.close();
    // The configurations the checks wrote, as the command line's check removes its own after each run.
    for (const config of configs) rmSync(config, { force: true });
  };

  const checkResident = async (
    root: string,
    files: readonly string[],
    context: readonly string[],
  ): Promise<Diagnostic[]> => {
    server ??= startTsgoServer(root);
    const { api, errorCategory, exited, hasEnded } = await server;
    // One turn of the event loop, I/O polled, before anything is written: a tsgo that ended since
    // the last check is seen ended now, and nothing is written to it.
    await new Promise((resolve) => setImmediate(resolve));
    if (hasEnded()) return exited;
    // A request to a server that has died would never settle: its end fails the check instead.
    return Promise.race([exited, checkOn(api)]);

    async function checkOn(session: TsgoServer['api']): Promise<Diagnostic[]> {
      const config = writeCheckConfig(root, files, context);
      const listed = [...files, ...context].join('\n');
      const listedBefore = opened.get(config);
      // A definition file added or removed: the configuration lists other files, and tsgo reads it
      // again only when told that it changed.
      if (listedBefore !== undefined && listedBefore !== listed)
        await (await session.updateSnapshot({ fileChanges: { changed: [config] } })).dispose();
      const snapshot = await session.updateSnapshot(
        listedBefore === undefined ? { openProjects: [config] } : { fileChanges: { invalidateAll: true } },
      );
      opened.set(config, listed);
      try {
        const project = snapshot.getProject(config);
        if (project === undefined) throw new Error(`tsgo did not open ${config}`);
        return await diagnosticsOf(root, project.program, files, errorCategory);
      } finally {
        await snapshot.dispose();
      }
    }
  };

  const check: TypeChecker = (root, files, context = []) => {
    const result = previous.then(async () => {
      if (failed) return fallback(root, files, context);
      try {
        return await checkResident(root, files, context);
      } catch (error) {
        failed = true;
        // Ended before anything else runs: a warn that throws must not leave tsgo running.
        await stop().catch(() => undefined);
        warn(
          `type check: tsgo's API failed (${(error as Error).message.split('\n')[0]}); checking with tsgo's command line from now on`,
        );
        return fallback(root, files, context);
      }
    });
    previous = result.catch(() => undefined);
    return result;
  };

  return { check, close: () => previous.then(stop) };
}

/**
 * The diagnostics tsgo's command line prints for these files, and those of no file, as lint reports
 * them. In the command line's stages: the configuration's and every file's syntax; the options' and
 * the global ones only when the syntax is clean; the files' types only when all of those are.
 */
async function diagnosticsOf(
  root: string,
  program: Program,
  files: readonly string[],
  errorCategory: DiagnosticCategory,
): Promise<Diagnostic[]> {
  const found = [...(await program.getConfigFileParsingDiagnostics()), ...(await program.getSyntacticDiagnostics())];
  if (found.length === 0) {
    const [options, global] = await Promise.all([program.getProgramDiagnostics(), program.getGlobalDiagnostics()]);
    found.push(...options, ...global);
  }
  if (found.length === 0)
    for (const fileDiagnostics of await Promise.all(files.map((file) => program.getSemanticDiagnostics(file))))
      found.push(...fileDiagnostics);
  const wanted = new Set(files.map((file) => resolve(file)));
  const lines = new SourceLines();
  const diagnostics: Diagnostic[] = [];
  for (const diagnostic of found) {
    const message = `TS${diagnostic.code}: ${chainText(diagnostic)}`;
    const error = diagnostic.category === errorCategory;
    if (diagnostic.fileName === undefined || diagnostic.fileName === '') {
      diagnostics.push(globalDiagnostic(error, message));
      continue;
    }
    const path = resolve(diagnostic.fileName);
    if (!wanted.has(path)) continue;
    const { line, column } = lines.placeOf(path, diagnostic.pos);
    diagnostics.push(fileDiagnostic(root, lines, { path, line, column, error, message }));
  }
  return diagnostics;
}

/** A message and the messages it chains, depth first, joined by spaces: as the command line's indented lines join. */
function chainText(diagnostic: TsgoDiagnostic): string {
  const texts = [diagnostic.text];
  for (const chained of diagnostic.messageChain ?? []) texts.push(chainText(chained));
  return texts.join(' ');
}
