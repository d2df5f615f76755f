import { watch } from 'node:fs';
import { join } from 'node:path';
import type { LintOptions } from '../lint/index.ts';
import { PUBLISHED_FILE } from '../versions/index.ts';
import { watchFolderTree } from './folder-watch.ts';

/** Changes that arrive this close together (an editor's write and rename) make one regeneration. */
const SETTLE_MS = 30;

/**
 * `generate --watch`: regenerates (lint first, so diagnostics are printed instead) on every change
 * under definitions/ and to published-versions.json, until SIGINT or SIGTERM. Each run imports the
 * definitions anew (the module cache would serve the old ones).
 * A change during a run starts one more run when it ends. Each run prints what changed, then the
 * diagnostics or the files written, then its wall time.
 */
export function watchDefinitions(root: string, regenerate: (lint: LintOptions) => Promise<number>): Promise<number> {
  let revision = 0;
  let running: Promise<void> | undefined;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const runOnce = async (changed: readonly string[]) => {
    const started = performance.now();
    console.log(changed.length === 0 ? 'generate --watch: generating' : `changed: ${changed.join(', ')}`);
    let outcome: string;
    try {
      outcome =
        (await regenerate({ revision: revision++ })) === 0 ? 'regenerated' : 'not regenerated (fix the errors above)';
    } catch (error) {
      console.error(`generate: ${(error as Error).message}`);
      outcome = 'not regenerated';
    }
    console.log(
      `${outcome} in ${((performance.now() - started) / 1000).toFixed(2)} s; watching definitions/ (Ctrl-C ends)`,
    );
  };
  const schedule = (file: string) => {
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => void drain(), SETTLE_MS);
  };
  const drain = async () => {
    if (running !== undefined) return; // The run in progress drains again when it ends.
    while (pending.size > 0) {
      const changed = [...pending].sort();
      pending = new Set();
      running = runOnce(changed);
      await running;
      running = undefined;
    }
  };

  return new Promise((resolve) => {
    const watchers: { close(): void }[] = [];
    // Watching before the first run: a change made while it runs is regenerated right after it.
    // Definition files only: an editor's or sed's temporary files come and go beside them.
    watchers.push(
      watchFolderTree(join(root, 'definitions'), (name) => name.endsWith('.ts') && schedule(`definitions/${name}`)),
    );
    watchers.push(watch(root, (_event, name) => name === PUBLISHED_FILE && schedule(PUBLISHED_FILE)));
    void (async () => {
      running = runOnce([]);
      await running;
      running = undefined;
      await drain();
    })();
    const stop = () => {
      for (const watcher of watchers) watcher.close();
      clearTimeout(timer);
      resolve(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
