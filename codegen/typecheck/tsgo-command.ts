import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folder of @typescript/native-preview, as this module resolves it. */
const PACKAGE = dirname(createRequire(import.meta.url).resolve('@typescript/native-preview/package.json'));

/** A program and the arguments that come before tsgo's own. */
export interface TsgoCommand {
  readonly file: string;
  readonly leadingArgs: readonly string[];
}

/**
 * How to start tsgo: its native executable, as the package's own `getExePath()` finds it for this
 * platform (the function its bin script runs before handing over to the executable). Started
 * through the bin script instead, every check would first start a Node process only to start
 * tsgo: a tenth of a second of each lint, generate and watcher run. `lib/getExePath.js` is not in
 * the package's exports, so it is loaded by its path; when that fails (a later version moved it),
 * the bin script runs under this Node instead.
 */
export async function tsgoCommand(): Promise<TsgoCommand> {
  try {
    const { default: getExePath } = (await import(pathToFileURL(join(PACKAGE, 'lib', 'getExePath.js')).href)) as {
      default: () => string;
    };
    return { file: getExePath(), leadingArgs: [] };
  } catch {
    return tsgoBinCommand();
  }
}

/** The bin script's command, the way npm's `tsgo` runs it: what tsgoCommand() must behave the same as. */
export function tsgoBinCommand(): TsgoCommand {
  return { file: process.execPath, leadingArgs: [join(PACKAGE, 'bin', 'tsgo')] };
}
