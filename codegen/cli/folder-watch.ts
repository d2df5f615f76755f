import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Watches a folder and every folder under it (those made later too), one watcher per folder, and
 * calls `changed` with the path, relative to `folder` with forward slashes, of each entry written,
 * made, removed or renamed in any of them.
 *
 * Not fs.watch's `recursive` option: on Linux, Node's recursive watcher follows the files it found,
 * and a file replaced by a rename (`sed -i`, editors that save through a temporary file) is no longer
 * seen after the first such save. A folder's own watcher sees the name arrive again on every save.
 */
export function watchFolderTree(folder: string, changed: (path: string) => void): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
  const watchOne = (dir: string) => {
    if (watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (name === null) return;
        const path = join(dir, name);
        if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) watchTree(path);
        changed(relative(folder, path).split(sep).join('/'));
      });
    } catch {
      return; // Removed before it could be watched: nothing in it to see.
    }
    // A watched folder that is removed ends its watcher; the parent's watcher reports the removal.
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(dir);
    });
    watchers.set(dir, watcher);
  };
  const watchTree = (dir: string) => {
    watchOne(dir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) watchTree(join(dir, entry.name));
  };
  watchTree(folder);
  return {
    close: () => {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
