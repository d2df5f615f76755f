export { command, InputError, UsageError, type CommandSpec, type Parsed } from './command.ts';
