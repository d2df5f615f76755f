// The commands of `convapi` (convapi.ts runs it after checking Node's version). Each command lives
// in its own module and returns its exit code; this file only picks the module.
import { runTokenCommand } from '@convapi/runtime/cli';

interface Command {
  readonly summary: string;
  readonly run: (args: string[]) => Promise<number>;
}

// Commands are imported when chosen, so `convapi token` never loads ts-morph.
const COMMANDS: Record<string, Command> = {
  init: {
    summary: 'set up a new project (or add the toolkit to an existing npm project)',
    run: async (args) => (await import('./init.ts')).run(args),
  },
  generate: {
    summary: 'write generated/ from definitions/ (--check: exit 1 when stale)',
    run: async (args) => (await import('./generate.ts')).run(args),
  },
  lint: {
    summary: 'lint definitions/ against the conventions',
    run: async (args) => (await import('./lint.ts')).run(args),
  },
  migrate: {
    summary: 'write the next migration (new NAME), list applied and pending ones (status), print their SQL (--dry-run)',
    run: async (args) => (await import('./migrate.ts')).run(args),
  },
  token: { summary: 'issue and revoke bearer tokens, refuse clients (same as convapi-token)', run: runTokenCommand },
};

const USAGE = `usage: convapi <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)}${command.summary}`)
  .join('\n')}

convapi <command> --help shows a command's options.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (name === undefined) {
    console.error(`convapi: a command is required\n${USAGE}`);
    return 2;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    console.error(`convapi: unknown command "${name}"\n${USAGE}`);
    return 2;
  }
  return command.run(args);
}
