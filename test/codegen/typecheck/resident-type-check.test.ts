import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { definitionFiles } from '../../../codegen/load/load-definitions.ts';
import { residentTypeChecker } from '../../../codegen/typecheck/resident-type-check.ts';
import { typeCheck } from '../../../codegen/typecheck/type-check.ts';
import { compareDiagnostics, type Diagnostic } from '../../../codegen/lint/diagnostic.ts';
import { writeDefinitions, writeProjectFile as write } from '../../support/temp-definitions.ts';

const ORDERS = `import { collection, field } from 'DSL';
export default collection({
  name: 'orders',
  fields: { item: field.string({ required: true }) },
  versions: { v1: {} },
});
`;

/** This process's children and their arguments, from /proc. */
function childProcesses(): { pid: number; args: string[] }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // After the command's name in parentheses: the state, then the parent's pid.
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (parent !== process.pid) return [];
        return [{ pid: Number(name), args: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0') }];
      } catch {
        return []; // Ended while listed.
      }
    });
}

/** The project's definition files, as lint hands them to the check. */
const filesOf = (root: string) => definitionFiles(root).map((file) => join(root, file));
const sorted = (diagnostics: Diagnostic[]) => [...diagnostics].sort(compareDiagnostics);

// The watcher's check keeps one tsgo process and speaks its unstable API; lint's starts tsgo's command
// line each time. Both must report the same diagnostics, at the same places, through every kind of
// change a watcher sees: an upgrade of @typescript/native-preview that changes the API fails here.
describe('residentTypeChecker(): one tsgo kept between checks, as generate --watch uses it', () => {
  const root = writeDefinitions({ 'orders.ts': ORDERS });
  const warnings: string[] = [];
  const resident = residentTypeChecker({ warn: (message) => warnings.push(message) });
  afterAll(() => resident.close());

  /** Both checks of the project as it is now: the resident one's answer, and whether the command line's is the same. */
  const bothChecks = async () => {
    const files = filesOf(root);
    const kept = sorted(await resident.check(root, files));
    expect(kept).toEqual(sorted(await typeCheck(root, files)));
    return kept;
  };

  it('a clean project: nothing', async () => {
    expect(await bothChecks()).toEqual([]);
  });

  it('a change to a definition: its misspelt option, at its column in UTF-16 units after wider characters', async () => {
    write(
      root,
      'definitions/orders.ts',
      ORDERS.replace('field.string({ required: true })', "field.string({ description: 'Größe 😀', requird: true })"),
    );
    const [diagnostic, ...rest] = await bothChecks();
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ file: 'definitions/orders.ts', line: 4, column: 59, endColumn: 66 });
    expect(diagnostic!.message).toMatch(/^TS2561: Object literal may only specify known properties, but 'requird'/);
  });

  it('a syntax error: that alone, as the command line reports no types while the syntax is wrong', async () => {
    write(
      root,
      'definitions/orders.ts',
      `${ORDERS.replace('{ required: true }', '{ required: true, , }')}export const check: number = 'one';\n`,
    );
    expect((await bothChecks()).map((diagnostic) => [diagnostic.line, diagnostic.message])).toEqual([
      [4, 'TS1136: Property assignment expected.'],
    ]);
  });

  it('a message with the messages it chains, joined as the command line joins them', async () => {
    write(root, 'definitions/orders.ts', `${ORDERS}export const check: (id: number) => void = (id: string) => {};\n`);
    const [diagnostic, ...rest] = await bothChecks();
    expect(rest).toEqual([]);
    expect(diagnostic!.message).toMatch(
      /^TS2322: Type '\(id: string\) => void' is not assignable to type '\(id: number\) => void'\. Types of parameters 'id' and 'id' are incompatible\. /,
    );
  });

  it('a helper module outside definitions/, missing, then written: the check sees the file it did not watch', async () => {
    write(
      root,
      'definitions/orders.ts',
      `import { limit } from '../rules/limits.ts';\n${ORDERS}export const most: number = limit;\n`,
    );
    expect((await bothChecks()).map((diagnostic) => diagnostic.message.slice(0, 7))).toEqual(['TS2307:']);
    mkdirSync(join(root, 'rules'), { recursive: true });
    write(root, 'rules/limits.ts', "export const limit = 'ten';\n");
    const [diagnostic, ...rest] = await bothChecks();
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ file: 'definitions/orders.ts', line: 8 });
    expect(diagnostic!.message).toBe("TS2322: Type 'string' is not assignable to type 'number'.");
  });

  it('a definition file added: the list of files changes, and the new one is checked', async () => {
    write(root, 'rules/limits.ts', 'export const limit = 10;\n');
    write(
      root,
      'definitions/lines.ts',
      ORDERS.replace("name: 'orders'", "name: 'lines'").replace('{ required: true }', '{ required: 1 }'),
    );
    const diagnostics = await bothChecks();
    expect(diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.message.slice(0, 7)])).toEqual([
      ['definitions/lines.ts', 'TS2322:'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('tsgo gone (killed): says so once, and checks with the command line from then on', async () => {
    const servers = childProcesses().filter(({ args }) => args.includes('--api') && args.includes(root));
    expect(servers).toHaveLength(1);
    process.kill(servers[0]!.pid, 'SIGKILL');
    write(root, 'definitions/lines.ts', ORDERS.replace("name: 'orders'", "name: 'lines'"));
    expect(await bothChecks()).toEqual([]);
    expect(await bothChecks()).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^type check: tsgo's API failed \(.+\); checking with tsgo's command line from now on$/,
    );
  });
});

describe('residentTypeChecker().close()', () => {
  it('ends tsgo and removes the configuration the checks wrote', async () => {
    const root = writeDefinitions({ 'orders.ts': ORDERS });
    const warnings: string[] = [];
    const resident = residentTypeChecker({ warn: (message) => warnings.push(message) });
    onTestFinished(() => resident.close());
    expect(await resident.check(root, filesOf(root))).toEqual([]);
    expect(warnings).toEqual([]);
    const server = () => childProcesses().filter(({ args }) => args.includes('--api') && args.includes(root));
    expect(server()).toHaveLength(1);
    // Its standard error is a pipe of this process's, not this process's own: a tsgo left behind
    // does not hold open the output a CI runner reads to its end.
    expect(readlinkSync(`/proc/${server()[0]!.pid}/fd/2`)).not.toBe(readlinkSync('/proc/self/fd/2'));
    // Where the checks write it for a project without node_modules: one file per process.
    const config = join(tmpdir(), 'convapi-lint', `tsconfig.${process.pid}.json`);
    expect(existsSync(config)).toBe(true);
    await resident.close();
    expect(existsSync(config)).toBe(false);
    await expect.poll(() => server().length).toBe(0);
  });
});
