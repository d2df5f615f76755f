import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A file system of a few megabytes of its own (tmpfs), to be filled to the last byte. */
export interface SmallDisk {
  /** Where it is mounted. */
  readonly path: string;
  /** Writes a file until the disk refuses more (ENOSPC), down to single blocks. */
  fill(): void;
  /** Removes what fill() wrote. */
  free(): void;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `megabytes` on a new temporary folder, or answers why it cannot (mounting needs
 * root, and a container may refuse it even to root): the caller skips with that one line.
 */
export function mountSmallDisk(megabytes: number): SmallDisk | string {
  const path = mkdtempSync(join(tmpdir(), 'small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    const reason = ((error as { stderr?: Buffer }).stderr?.toString() ?? (error as Error).message)
      .trim()
      .split('\n')[0];
    return `cannot mount a small tmpfs to fill (needs root and CAP_SYS_ADMIN): ${reason}`;
  }
  const filler = join(path, 'filler');
  return {
    path,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        for (const size of [1024 * 1024, 64 * 1024, 4096, 512]) {
          const block = Buffer.alloc(size, 1);
          try {
            for (;;) writeSync(fd, block);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      rmSync(path, { recursive: true, force: true });
    },
  };
}
