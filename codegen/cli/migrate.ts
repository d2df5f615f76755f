import { resolve } from 'node:path';
import { command, reportMigrations, UsageError } from '@convapi/runtime/cli';
import { generateOnce } from './generate.ts';

export const USAGE = `usage: npm run convapi -- migrate <new NAME | status | --dry-run> [options]
  new NAME            write migrations/NNNN_NAME.json (NAME: lowercase words joined with hyphens):
                      the changes of definitions/ since the last migration, then regenerate generated/;
                      the first one records every table (a database made before keeps its rows)
  status              list the migrations the database has applied, and those npm start will apply
  --dry-run           print the SQL npm start would run for the pending migrations; changes nothing
options:
  --root DIR          project root: reads DIR/definitions/ and DIR/migrations/ (default: the current folder)
  --accept-data-loss  with new: write removals, and conversions that empty the values that do not
                      convert; the file says LOSES DATA for each
  --help              this text
The database is the one DATABASE_URL names, as for npm start (default sqlite:data/app.db).
Declare a rename in the definition (renamedFrom: 'old_name'), or it is a removal and an addition.
exit status: 0 done (or nothing to do), 1 a change that cannot be written as asked (named with its
             place) or a database that cannot be read, 2 a usage error`;

/**
 * `convapi migrate`: writes the next migration from the definitions (`new`), or tells where the
 * database stands (`status`, `--dry-run`). `npm start` applies the pending ones.
 */
export const run = command({
  name: 'migrate',
  usage: USAGE,
  allowPositionals: true,
  options: {
    root: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'accept-data-loss': { type: 'boolean', default: false },
  },
  main: async ({ values, positionals }) => {
    const root = resolve(values.root ?? process.cwd());
    const [action, ...rest] = positionals;
    if (values['dry-run']) {
      if (action !== undefined)
        throw new UsageError(`--dry-run takes no command (it prints what npm start would run); not '${action}'`);
      return reportMigrations(root, 'sql');
    }
    if (action === 'status') {
      if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
      return reportMigrations(root, 'status');
    }
    if (action === 'new') return writeNew(root, rest, values['accept-data-loss']);
    throw new UsageError(
      action === undefined ? 'say what to do: new NAME, status or --dry-run' : `unknown command '${action}'`,
    );
  },
});

async function writeNew(root: string, names: readonly string[], acceptDataLoss: boolean): Promise<number> {
  const { MIGRATION_NAME, writeNextMigration } = await import('../migrations/write-migration.ts');
  const [name, extra] = names;
  if (name === undefined) throw new UsageError('new needs a NAME (lowercase words joined with hyphens: add-phone)');
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  if (!MIGRATION_NAME.test(name))
    throw new UsageError(`the name '${name}' is not lowercase words joined with hyphens (add-phone)`);
  const next = await writeNextMigration(root, name, { acceptDataLoss });
  if (next.outcome === 'refused') {
    for (const line of next.lines) console.error(line);
    console.error('migrate: nothing written');
    return 1;
  }
  if (next.outcome === 'nothing') {
    console.log(`nothing to migrate: definitions/ declares what ${next.since ?? 'no migration'} left`);
    return 0;
  }
  console.log(`wrote ${next.path}:`);
  for (const line of next.summary) console.log(`  ${line}`);
  // generated/api.ts lists the migrations: regenerated now, so the next start applies this one.
  return generateOnce(root, { check: false, publish: [] });
}

if (import.meta.main) process.exitCode = await run(process.argv.slice(2));
