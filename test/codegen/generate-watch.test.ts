import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCE_CONDITION } from '../support/spawn-server.ts';
import { until } from '../support/poll.ts';
import { CLI, copyProject, editFileByRename } from '../support/temp-project.ts';

describe('npm run generate -- --watch', () => {
  it('regenerates on each save under definitions/ (saved by rename, as sed -i and editors do), prints the diagnostics of a broken one, and stops on SIGTERM', async () => {
    const root = copyProject();
    const child = spawn(process.execPath, [...SOURCE_CONDITION, CLI, 'generate', '--watch'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const runs = () => output.split('\n').filter((line) => / in \d+\.\d\d s; watching definitions\//.test(line)).length;
    const waitForRuns = (count: number) =>
      until(
        async () => runs(),
        (seen) => seen >= count,
        90_000,
      );
    try {
      expect(await waitForRuns(1)).toBe(1);

      editFileByRename(root, 'definitions/orders.ts', (text) =>
        text.replace('item: field.string({', "item: field.string({ description: 'What is ordered.',"),
      );
      expect(await waitForRuns(2), output).toBe(2);
      expect(output).toContain('changed: definitions/orders.ts');
      expect(output).toContain('  written generated/models/orders.ts');
      expect(output).toMatch(/\nregenerated in \d+\.\d\d s; watching definitions\//);
      expect(readFileSync(join(root, 'generated/models/orders.ts'), 'utf8')).toContain('What is ordered.');

      editFileByRename(root, 'definitions/orders.ts', (text) =>
        text.replace('required: true, minLength: 1', 'requird: true, minLength: 1'),
      );
      expect(await waitForRuns(3)).toBe(3);
      expect(output).toMatch(
        /definitions\/orders\.ts:8:\d+ error type-check TS2561: Object literal may only specify known properties, but 'requird' does not exist/,
      );
      expect(output).toMatch(/\nnot regenerated \(fix the errors above\) in \d+\.\d\d s/);
      expect(readFileSync(join(root, 'generated/models/orders.ts'), 'utf8')).toContain('What is ordered.');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 300_000);
});
