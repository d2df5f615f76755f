import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/**
 * A mistake in how a command was called: printed as one line naming it, then the usage; exit 2.
 * Throw it from a command's `main` for what parseArgs cannot see (a missing argument, a bad value).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The command could not read what it works on (a missing folder or file): one line, exit 2, no usage.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** What a command is: its name (for the one-line error), its usage text, its options. */
export interface CommandSpec<Options extends ParseArgsOptionsConfig> {
  /** `lint`, `generate`, `token`: the first word of an error line (`lint: unknown option '--x'`). */
  readonly name: string;
  /** Printed by `--help` (stdout, exit 0) and after a usage error (stderr, exit 2). */
  readonly usage: string;
  /** node:util parseArgs options; `--help` is added to them. */
  readonly options: Options;
  /** Whether positional arguments are accepted (default false: any is a usage error). */
  readonly allowPositionals?: boolean;
  /** Rewrites argv before parsing (the token CLI marks a value that may begin with '-' as positional). */
  readonly prepare?: (args: readonly string[]) => string[];
  /** The command itself: its exit code (0, or 1 for what it found), given the parsed arguments. */
  readonly main: (parsed: Parsed<Options>) => Promise<number> | number;
}

/** The parsed arguments of a command: what parseArgs returns for its options, strictly. */
export interface Parsed<Options extends ParseArgsOptionsConfig> {
  readonly values: ReturnType<typeof parseArgs<{ options: Options; allowPositionals: true; strict: true }>>['values'];
  readonly positionals: string[];
}

/**
 * One command-line behaviour for every CLI (lint, generate, token, bench, init): `--help` prints the
 * usage and exits 0; an unknown or malformed option, or a UsageError thrown by `main`, prints one line
 * naming it plus the usage to stderr and exits 2; an InputError prints its line and exits 2; any other
 * error prints `name: message` and exits 1 (the stack only with DEBUG set). Never a bare stack trace. Returns the command's
 * `run(args)`, which the `convapi` dispatcher and the entry file both call.
 *
 * @example
 * export const run = command({ name: 'lint', usage: USAGE, options: { root: { type: 'string' } }, main: ({ values }) => lint(values.root) });
 * if (import.meta.main) process.exitCode = await run(process.argv.slice(2));
 */
export function command<const Options extends ParseArgsOptionsConfig>(
  spec: CommandSpec<Options>,
): (args: readonly string[]) => Promise<number> {
  return async function run(args: readonly string[]): Promise<number> {
    let parsed: Parsed<Options> & { values: { help?: boolean } };
    try {
      const given = spec.prepare?.(args) ?? [...args];
      parsed = parseArgs({
        args: given,
        options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
        allowPositionals: true,
        strict: true,
      }) as never;
      if (parsed.values.help === true) {
        console.log(spec.usage);
        return 0;
      }
      if (spec.allowPositionals !== true && parsed.positionals.length > 0)
        throw new UsageError(`unexpected argument '${parsed.positionals[0]}'`);
      return await spec.main(parsed);
    } catch (error) {
      if (isUsageError(error)) {
        const message = error instanceof UsageError ? (error as Error).message : oneLine((error as Error).message);
        console.error(`${spec.name}: ${message}\n${spec.usage}`);
        return 2;
      }
      console.error(`${spec.name}: ${(error as Error).message ?? String(error)}`);
      if (process.env.DEBUG) console.error((error as Error).stack);
      return error instanceof InputError ? 2 : 1;
    }
  };
}

/** A UsageError, or one of parseArgs's own (ERR_PARSE_ARGS_UNKNOWN_OPTION, ..._INVALID_OPTION_VALUE, ...). */
function isUsageError(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    String((error as { code?: unknown } | undefined)?.code ?? '').startsWith('ERR_PARSE_ARGS')
  );
}

/**
 * parseArgs's own message as one line in the style of ours: it follows the option it names with a hint
 * about '--' ("Unknown option '--x'. To specify ..."), so keep the first sentence, first letter lowercase.
 */
function oneLine(message: string): string {
  const line = message
    .split('\n')[0]!
    .split(/\.\s+(?=[A-Z])/)[0]!
    .trim();
  return line.charAt(0).toLowerCase() + line.slice(1);
}
