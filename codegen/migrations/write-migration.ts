import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationPlan } from '@convapi/runtime/migrations';
import { formatDiagnostic } from '../lint/diagnostic.ts';
import { placeFindings } from '../lint/lint.ts';
import { loadDefinitions } from '../load/load-definitions.ts';
import { resolveModel } from '../model/index.ts';
import { declaredTables } from '../model/tables.ts';
import { diffSchema } from './diff.ts';
import { checkedMigrations, MIGRATIONS_FOLDER } from './files.ts';

/** What `migrate new` did: wrote a file, found nothing to migrate, or refused (with the lines saying why). */
export type NextMigration =
  | { readonly outcome: 'written'; readonly path: string; readonly summary: readonly string[] }
  | { readonly outcome: 'nothing'; readonly since: string | undefined }
  | { readonly outcome: 'refused'; readonly lines: readonly string[] };

/** A migration's name: lowercase words joined with hyphens (`add-phone`). */
export const MIGRATION_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Writes the next migration of a project: compares the tables its definitions declare with the
 * schema the last migration left (the first migration creates every table, and on a database made
 * before the project kept migrations it keeps the tables there) and writes
 * migrations/NNNN_<name>.json with the steps, a summary, and the new schema. A change no conversion
 * covers, or one that loses data without `acceptDataLoss`, writes nothing and says where it is.
 */
export async function writeNextMigration(root: string, name: string, { acceptDataLoss }: { readonly acceptDataLoss: boolean }): Promise<NextMigration> {
  const { files, problems } = checkedMigrations(root);
  if (problems.length > 0) return { outcome: 'refused', lines: placeFindings(root, problems.map((problem) => ({ rule: 'migration-order', source: problem.path, at: problem.at, message: problem.message }))).map(formatDiagnostic) };
  const last = files.at(-1);
  const declared = declaredTables(resolveModel(await loadDefinitions(root)));
  const diff = diffSchema(last?.migration.schema.tables ?? [], declared, { acceptDataLoss, snapshotSource: last?.path ?? MIGRATIONS_FOLDER });
  const refusals = diff.changes.flatMap((change) =>
    change.refused !== undefined ? [{ change, why: change.refused }] : change.loses !== undefined && !acceptDataLoss ? [{ change, why: `it loses ${change.loses}: write it with --accept-data-loss if that is what you want` }] : [],
  );
  if (refusals.length > 0) {
    const findings = refusals.map(({ change, why }) => ({ rule: 'migration-missing', source: change.source, at: change.at, message: `${change.change}; ${why}` }));
    return { outcome: 'refused', lines: placeFindings(root, findings).map(formatDiagnostic) };
  }
  if (diff.steps.length === 0) return { outcome: 'nothing', since: last?.path };
  const number = String((last?.number ?? 0) + 1).padStart(4, '0');
  const path = `${MIGRATIONS_FOLDER}/${number}_${name}.json`;
  const summary = diff.changes.map((change) => (change.loses === undefined ? change.change : `LOSES DATA: ${change.change}`));
  const plan: MigrationPlan = { follows: last?.id ?? null, summary, steps: diff.steps, schema: { tables: declared.map((table) => table.spec) } };
  mkdirSync(join(root, MIGRATIONS_FOLDER), { recursive: true });
  writeFileSync(join(root, path), `${JSON.stringify(plan, null, 2)}\n`);
  return { outcome: 'written', path, summary };
}
