import { createRequire, registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Preloaded into a server (NODE_OPTIONS=--import=<this file>): on SIGUSR2 it prints one line,
 * `loaded-modules <JSON>`, what the process has loaded so far: `builtins`, Node's own modules
 * (process.moduleLoadList), and `files`, the CommonJS files (the module cache) and the ES module
 * files (seen by a load hook: an ES-only package such as jose is in no CommonJS cache), so a test
 * can tell what start-up and a request made it load.
 */
// process.moduleLoadList is Node's own list (shown by `node -p process.moduleLoadList`), not in its types.
const { moduleLoadList } = process as NodeJS.Process & { readonly moduleLoadList: readonly string[] };
const { cache } = createRequire(import.meta.url);
const esModules = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) esModules.add(fileURLToPath(url));
    return nextLoad(url, context);
  },
});
process.on('SIGUSR2', () => {
  const files = [...new Set([...Object.keys(cache), ...esModules])];
  process.stdout.write(`loaded-modules ${JSON.stringify({ builtins: moduleLoadList, files })}\n`);
});
