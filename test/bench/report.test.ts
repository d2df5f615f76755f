import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFiguresBlock } from '../../bench/lib/report.ts';

describe('the BENCHMARKS.md figures block', () => {
  const folders: string[] = [];
  const file = () => {
    const folder = mkdtempSync(join(tmpdir(), 'bench-report-'));
    folders.push(folder);
    return join(folder, 'BENCHMARKS.md');
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('replaces only the text between the markers', () => {
    const path = file();
    writeFileSync(path, 'intro\n<!-- bench:figures:start -->\nold\n<!-- bench:figures:end -->\noutro\n');
    writeFiguresBlock(path, 'new figures');
    expect(readFileSync(path, 'utf8')).toBe(
      'intro\n<!-- bench:figures:start -->\nnew figures\n<!-- bench:figures:end -->\noutro\n',
    );
  });

  it('appends a block to a file that has none', () => {
    const path = file();
    writeFileSync(path, 'intro');
    writeFiguresBlock(path, 'figures');
    expect(readFileSync(path, 'utf8')).toBe(
      'intro\n\n<!-- bench:figures:start -->\nfigures\n<!-- bench:figures:end -->\n',
    );
  });
});
