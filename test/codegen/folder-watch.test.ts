import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFolderTree } from '../../codegen/cli/folder-watch.ts';
import { until } from '../support/poll.ts';
import { editFileByRename } from '../support/temp-project.ts';

const closing: { close(): void }[] = [];
afterEach(() => closing.splice(0).forEach((watcher) => watcher.close()));

describe('watchFolderTree()', () => {
  /** A watched folder holding orders.ts and shared/fields.ts, and the paths its watcher reported since the last check. */
  function watchedFolder() {
    const folder = mkdtempSync(join(tmpdir(), 'watched-'));
    writeFileSync(join(folder, 'orders.ts'), 'v0');
    mkdirSync(join(folder, 'shared'));
    writeFileSync(join(folder, 'shared', 'fields.ts'), 'v0');
    const seen = new Set<string>();
    closing.push(watchFolderTree(folder, (path) => seen.add(path)));
    /** Waits until `path` is reported (or 5 s), then forgets what was reported. */
    const sees = async (path: string) => {
      const found = await until(
        async () => seen.has(path),
        (has) => has,
      );
      seen.clear();
      return found;
    };
    return { folder, sees };
  }

  it('sees a file saved by rename again and again, not only the first time', async () => {
    const { folder, sees } = watchedFolder();
    for (let save = 1; save <= 3; save += 1) {
      editFileByRename(folder, 'orders.ts', () => `v${save}`);
      expect(await sees('orders.ts'), `save ${save}`).toBe(true);
    }
    writeFileSync(join(folder, 'orders.ts'), 'in place');
    expect(await sees('orders.ts')).toBe(true);
  });

  it('sees files in folders under it, those made after it started too', async () => {
    const { folder, sees } = watchedFolder();
    for (let save = 1; save <= 2; save += 1) {
      editFileByRename(folder, 'shared/fields.ts', () => `v${save}`);
      expect(await sees('shared/fields.ts'), `save ${save}`).toBe(true);
    }
    mkdirSync(join(folder, 'later'));
    expect(await sees('later')).toBe(true);
    writeFileSync(join(folder, 'later', 'rules.ts'), 'v1');
    expect(await sees('later/rules.ts')).toBe(true);
  });
});
