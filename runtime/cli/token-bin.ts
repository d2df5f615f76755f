#!/usr/bin/env node
// `convapi-token`: the token CLI on its own, so a production install (the runtime without the
// generator) can still issue and revoke tokens. `convapi token` runs the same command. The Node
// version is checked first, alone (see ../node-check.ts); the command is loaded after it.
import '../node-check.ts';

process.exitCode = await (await import('./token.ts')).run(process.argv.slice(2));
