import { afterEach, describe, expect, it, vi } from 'vitest';
import { command, InputError, UsageError } from '../../../runtime/cli/index.ts';

const USAGE = 'usage: demo [--name NAME]';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.join(' ')));
  return { out, err };
}

const demo = command({
  name: 'demo',
  usage: USAGE,
  options: { name: { type: 'string' } },
  main: ({ values }) => {
    if (values.name === 'bad') throw new UsageError('--name may not be "bad"');
    if (values.name === 'env') throw new UsageError('DATABASE_URL=sqlite::memory: is out of reach. Use a file');
    if (values.name === 'missing') throw new InputError('/nowhere: no such folder');
    if (values.name === 'boom') throw new Error('the disk is full');
    console.log(`hello ${values.name ?? 'world'}`);
    return 0;
  },
});

afterEach(() => vi.restoreAllMocks());

describe('command(): one command-line behaviour for every CLI', () => {
  it.each([
    ['runs the command', { args: ['--name', 'ada'], code: 0, out: ['hello ada'], err: [] }],
    ['--help prints the usage on stdout, exit 0', { args: ['--help'], code: 0, out: [USAGE], err: [] }],
    ['-h too', { args: ['-h'], code: 0, out: [USAGE], err: [] }],
    [
      'an unknown option: one line naming it, then the usage, exit 2',
      { args: ['--format', 'json'], code: 2, out: [], err: [`demo: unknown option '--format'\n${USAGE}`] },
    ],
    [
      'an option without its value',
      { args: ['--name'], code: 2, out: [], err: [`demo: option '--name <value>' argument missing\n${USAGE}`] },
    ],
    [
      'a positional argument it does not take',
      { args: ['extra'], code: 2, out: [], err: [`demo: unexpected argument 'extra'\n${USAGE}`] },
    ],
    [
      'a UsageError from the command',
      { args: ['--name', 'bad'], code: 2, out: [], err: [`demo: --name may not be "bad"\n${USAGE}`] },
    ],
    [
      "a UsageError's message as written",
      {
        args: ['--name', 'env'],
        code: 2,
        out: [],
        err: [`demo: DATABASE_URL=sqlite::memory: is out of reach. Use a file\n${USAGE}`],
      },
    ],
    [
      'an InputError: its line, exit 2, no usage',
      { args: ['--name', 'missing'], code: 2, out: [], err: ['demo: /nowhere: no such folder'] },
    ],
    [
      'any other error: one line, exit 1, no stack',
      { args: ['--name', 'boom'], code: 1, out: [], err: ['demo: the disk is full'] },
    ],
  ])('%s', async (_name, { args, code, out, err }) => {
    const printed = capture();
    expect(await demo(args)).toBe(code);
    expect(printed.out).toEqual(out);
    expect(printed.err).toEqual(err);
  });
});
