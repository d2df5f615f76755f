import { enableCompileCache } from 'node:module';

// Node's on-disk cache of compiled code (as TypeScript's own tsc turns it on): from the second run on,
// TypeScript, ts-morph and the definitions load from V8's cached bytecode instead of being compiled
// again, a few hundred milliseconds of every lint and generate. It lives in the system's temporary
// folder (or NODE_COMPILE_CACHE), is checked against each file's contents, and may be deleted at
// any time. Imported by the CLI before its commands, so that every module loaded after it is cached.
enableCompileCache?.();
