#!/usr/bin/env node
// `convapi-token`: the token CLI on its own, so a production install (the runtime without the
// generator) can still issue and revoke tokens. `convapi token` runs the same command.
import { run } from './token.ts';

process.exitCode = await run(process.argv.slice(2));
