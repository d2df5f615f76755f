import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tsgoBinCommand, tsgoCommand, type TsgoCommand } from '../../../codegen/typecheck/tsgo-command.ts';

const run = (command: TsgoCommand, args: readonly string[]) =>
  execFileSync(command.file, [...command.leadingArgs, ...args], { encoding: 'utf8' });

// The type check starts tsgo's native executable directly, found by a file of
// @typescript/native-preview that is not in its exports: an upgrade that moves it fails here.
describe('tsgoCommand()', () => {
  it("starts the native executable the package's bin script would hand over to, without a Node process", async () => {
    const command = await tsgoCommand();
    expect(command.file).not.toBe(process.execPath);
    expect(command.leadingArgs).toEqual([]);
    expect(run(command, ['--version'])).toBe(run(tsgoBinCommand(), ['--version']));
  });
});
