/** The runtime's command-line entry points, for a CLI that dispatches to them. */
export { run as runTokenCommand } from './token.ts';
