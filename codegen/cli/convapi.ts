#!/usr/bin/env node
// `convapi <command> [options]`. The Node version is checked first, alone: the commands' modules
// are loaded only after it (see @convapi/runtime/node-check), so an old Node gets one line saying
// which Node convapi needs, not a stack.
import '@convapi/runtime/node-check';

// Node's compile cache is on before the commands' modules are compiled.
await import('./compile-cache.ts');
process.exitCode = await (await import('./commands.ts')).main(process.argv.slice(2));
