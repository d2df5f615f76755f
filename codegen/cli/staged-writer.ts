import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GeneratedFile } from '../emit/index.ts';

/**
 * The files of a generation compared with generated/ on disk as the generator produces them, and,
 * once writing is allowed (the lint came back clean), written while the rest is still being built.
 * Creating a file costs the kernel most of a millisecond on some file systems, and a fresh
 * generated/ of 1,000 collections has 2,000 of them: those writes proceed on libuv's threads beside
 * the building of the OpenAPI documents instead of after it. Nothing is written before allow().
 * Each file is encoded to UTF-8 once, here, unless its emitter gave its bytes already (in pieces: the
 * 50 MB OpenAPI document of 1,000 collections): the bytes are compared with disk, written, and hashed
 * for the stamp (bytesOf()).
 */
export class StagedWriter {
  readonly #root: string;
  readonly #folders = new Set<string>();
  readonly #writes: Promise<void>[] = [];
  readonly #bytes = new Map<string, readonly Buffer[]>();
  #pending: GeneratedFile[] = [];
  #allowed = false;
  /** The files that differ from what is on disk (missing or changed), in the order they came. */
  readonly stale: GeneratedFile[] = [];

  constructor(root: string) {
    this.#root = root;
  }

  /** Files just produced: each one that differs from disk is written now if writing is allowed, else once it is. */
  add(files: readonly GeneratedFile[]): void {
    for (const file of files) {
      const path = join(this.#root, file.path);
      const bytes = encoded(file);
      this.#bytes.set(file.path, bytes);
      if (existsSync(path) && sameBytes(readFileSync(path), bytes)) continue;
      this.stale.push(file);
      if (this.#allowed) this.#write(file);
      else this.#pending.push(file);
    }
  }

  /** From now on stale files are written (those already found first). */
  allow(): void {
    this.#allowed = true;
    for (const file of this.#pending) this.#write(file);
    this.#pending = [];
  }

  /** The UTF-8 bytes of a file given to add(), as compared and written, in pieces (often one). */
  bytesOf(file: GeneratedFile): readonly Buffer[] {
    return this.#bytes.get(file.path) ?? encoded(file);
  }

  /** Resolves when every write started has finished (rejects with the first that failed). */
  async done(): Promise<void> {
    await Promise.all(this.#writes);
  }

  #write(file: GeneratedFile): void {
    const path = join(this.#root, file.path);
    const folder = dirname(path);
    if (!this.#folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.#folders.add(folder);
    }
    const bytes = this.bytesOf(file);
    // One piece is written at once; more are written one after another (writeFile takes an iterable).
    const write = writeFile(path, bytes.length === 1 ? bytes[0]! : bytes);
    // Awaited in done(); kept from counting as unhandled meanwhile.
    write.catch(() => undefined);
    this.#writes.push(write);
  }
}

/** A file's UTF-8 bytes: as its emitter gave them, else its text encoded once. */
function encoded(file: GeneratedFile): readonly Buffer[] {
  return file.bytes ?? [Buffer.from(file.text)];
}

/** Whether a file's bytes are the pieces, one after another. */
function sameBytes(onDisk: Buffer, pieces: readonly Buffer[]): boolean {
  let at = 0;
  for (const piece of pieces) {
    if (at + piece.length > onDisk.length || piece.compare(onDisk, at, at + piece.length) !== 0) return false;
    at += piece.length;
  }
  return at === onDisk.length;
}
