import { createRequire } from 'node:module';

/**
 * Preloaded into a server (NODE_OPTIONS=--import=<this file>): on SIGUSR2 it prints one line,
 * `loaded-modules <JSON>`, what the process has loaded so far: `builtins`, Node's own modules
 * (process.moduleLoadList), and `files`, the CommonJS files (the module cache, which holds the
 * packages an ES module imported too), so a test can tell what start-up and a request made it load.
 */
// process.moduleLoadList is Node's own list (shown by `node -p process.moduleLoadList`), not in its types.
const { moduleLoadList } = process as NodeJS.Process & { readonly moduleLoadList: readonly string[] };
const { cache } = createRequire(import.meta.url);
process.on('SIGUSR2', () => {
  process.stdout.write(`loaded-modules ${JSON.stringify({ builtins: moduleLoadList, files: Object.keys(cache) })}\n`);
});
