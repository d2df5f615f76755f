import { diffSchema } from '../../migrations/diff.ts';
import { declaredTables } from '../../model/tables.ts';
import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';

const WRITE = 'write its migration with `npm run convapi -- migrate new <name>`';

/**
 * migration-order / migration-missing, in a project that keeps migrations (a migrations/ folder):
 * the files form one numbered line, and the definitions declare what the last migration left. A
 * change with no migration is reported at the field (a rename without renamedFrom is the removal it
 * would be), so CI fails before a server refuses to start on it.
 */
export const migrationRules: Rule = ({ model, migrations }) => {
  if (migrations === undefined) return [];
  const findings: Finding[] = migrations.problems.map((problem) => ({
    rule: 'migration-order',
    source: problem.path,
    at: problem.at,
    message: problem.message,
  }));
  // With a file unreadable, what the migrations leave is unknown: its problem is the one to fix.
  if (!migrations.complete) return findings;
  const last = migrations.files.at(-1);
  const snapshotSource = last?.path ?? 'migrations';
  const { changes } = diffSchema(last?.migration.schema.tables ?? [], declaredTables(model), {
    acceptDataLoss: false,
    snapshotSource,
  });
  for (const change of changes) {
    const advice =
      change.refused !== undefined
        ? `no migration can be written for it: ${change.refused}`
        : `no migration in migrations/ makes it: ${WRITE}${change.loses === undefined ? '' : ' (it loses data: add --accept-data-loss)'}`;
    findings.push({
      rule: 'migration-missing',
      source: change.source,
      at: change.at,
      message: `${change.change}; ${advice}`,
    });
  }
  return findings;
};
