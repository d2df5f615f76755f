import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StagedWriter } from '../../../codegen/cli/staged-writer.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function projectWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'staged-writer-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const inPieces = (path: string, ...pieces: string[]) => ({
  path,
  text: pieces.join(''),
  bytes: pieces.map((piece) => Buffer.from(piece)),
});

describe('StagedWriter', () => {
  it('writes nothing before allow(), then every file that differs from disk, and leaves equal files alone', async () => {
    const root = projectWith({ 'generated/same.ts': 'same\n', 'generated/changed.ts': 'old\n' });
    const writer = new StagedWriter(root);
    writer.add([
      { path: 'generated/same.ts', text: 'same\n' },
      { path: 'generated/changed.ts', text: 'new\n' },
      { path: 'generated/deep/new.ts', text: 'é\n' },
    ]);
    expect(writer.stale.map((file) => file.path)).toEqual(['generated/changed.ts', 'generated/deep/new.ts']);
    expect(readFileSync(join(root, 'generated/changed.ts'), 'utf8')).toBe('old\n');
    writer.allow();
    await writer.done();
    expect(readFileSync(join(root, 'generated/changed.ts'), 'utf8')).toBe('new\n');
    expect(readFileSync(join(root, 'generated/deep/new.ts'), 'utf8')).toBe('é\n');
  });

  it('compares, writes and hands back a file given in pieces as the pieces joined', async () => {
    const root = projectWith({
      'generated/equal.json': '{\n  "a": 1\n}\n',
      'generated/shorter.json': '{\n  "a": 1\n}\n',
      'generated/longer.json': '{\n  "a": 1\n}\n',
      'generated/other.json': '{\n  "a": 2\n}\n',
    });
    const writer = new StagedWriter(root);
    writer.allow();
    const files = [
      inPieces('generated/equal.json', '{\n', '  "a": 1\n', '}\n'),
      inPieces('generated/shorter.json', '{\n', '  "a": 1\n', '}\n', '\n'),
      inPieces('generated/longer.json', '{\n', '  "a": 1\n'),
      inPieces('generated/other.json', '{\n', '  "a": 1\n', '}\n'),
      inPieces('generated/new.json', '{\n', '  "ü": "€"\n', '}\n'),
    ];
    writer.add(files);
    await writer.done();
    expect(writer.stale.map((file) => file.path)).toEqual([
      'generated/shorter.json',
      'generated/longer.json',
      'generated/other.json',
      'generated/new.json',
    ]);
    for (const file of files) {
      expect(readFileSync(join(root, file.path), 'utf8'), file.path).toBe(file.text);
      expect(Buffer.concat(writer.bytesOf(file)).toString('utf8'), file.path).toBe(file.text);
    }
  });
});
