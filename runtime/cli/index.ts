/** The runtime's command-line pieces: the one command-line behaviour every CLI shares, and the token command for a CLI that dispatches to it. */
export { command, InputError, UsageError, type CommandSpec, type Parsed } from './command.ts';
export { run as runTokenCommand } from './token.ts';
