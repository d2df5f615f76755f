import { z } from 'zod';
import type { ColumnKind, ColumnSpec, TableSpec } from '../table-spec.ts';

/**
 * One change a migration makes, declared rather than written as SQL: each engine's migration-sql.ts
 * turns it into statements, so one file serves SQLite and PostgreSQL and `migrate --dry-run` shows the
 * SQL each would run. Indexes are named `<table>__<column>` on both engines; a sortable column's
 * `(column, key)` index is named `<table>__<column>__sorted`.
 */
export type MigrationStep =
  /** A table with its columns and their indexes (its search index is a `search-index` step). Kept when it exists. */
  | { readonly op: 'create-table'; readonly table: TableSpec }
  | { readonly op: 'rename-table'; readonly from: string; readonly to: string }
  | { readonly op: 'drop-table'; readonly table: string; readonly loses: string }
  /** Rows stored before hold the column's default (or null). */
  | { readonly op: 'add-column'; readonly table: string; readonly column: ColumnSpec }
  /** The values move with the name; the column's index follows it. */
  | { readonly op: 'rename-column'; readonly table: string; readonly from: string; readonly to: string }
  /**
   * Every row's value converted (conversions.ts). A value that does not convert either stops the
   * migration, changing nothing (`refuse`), or is emptied (`set-null`, written only when data loss is accepted).
   */
  | { readonly op: 'convert-column'; readonly table: string; readonly column: string; readonly from: ColumnKind; readonly to: ColumnKind; readonly unconvertible: 'refuse' | 'set-null'; readonly loses?: string }
  | { readonly op: 'drop-column'; readonly table: string; readonly column: string; readonly loses: string }
  /** `sorted`: the `(column, key)` index a sortable column has (lists read it in order), instead of `(column)`. */
  | { readonly op: 'add-index'; readonly table: string; readonly column: string; readonly unique: boolean; readonly sorted?: boolean }
  | { readonly op: 'drop-index'; readonly table: string; readonly column: string; readonly sorted?: boolean }
  /** The table's full-text index rebuilt over these columns (none: removed). */
  | { readonly op: 'search-index'; readonly table: string; readonly columns: readonly string[] };

/** The schema the definitions had when a migration was written: what the next migration is compared with. */
export interface SchemaSnapshot {
  readonly tables: readonly TableSpec[];
}

/** A migration file's content (migrations/NNNN_name.json). */
export interface MigrationPlan {
  /** The migration this one was written after (null for the first): two written after the same one are in conflict. */
  readonly follows: string | null;
  /** What it does, one line per step, for the reviewer. */
  readonly summary: readonly string[];
  readonly steps: readonly MigrationStep[];
  /** The schema after it: the snapshot the next migration is written against. */
  readonly schema: SchemaSnapshot;
}

/** A migration as the runtime applies it: its id is the file name without `.json` (`0002_add-phone`). */
export interface Migration extends MigrationPlan {
  readonly id: string;
}

/** A migration as generated/api.ts lists it: the id and the file's parsed JSON. */
export interface MigrationSource {
  readonly id: string;
  readonly plan: unknown;
}

/** Every ColumnKind: a kind added to table-spec.ts without being listed here fails the type check below. */
const COLUMN_KINDS = ['string', 'integer', 'number', 'boolean', 'time', 'reference', 'json'] as const satisfies readonly ColumnKind[];
const everyKindListed: [Exclude<ColumnKind, (typeof COLUMN_KINDS)[number]>] extends [never] ? true : never = true;
void everyKindListed;
const columnKind = z.enum(COLUMN_KINDS);
const columnSpec = z.object({
  name: z.string(),
  kind: columnKind,
  unique: z.boolean(),
  indexed: z.boolean(),
  sortable: z.boolean().optional(),
  searchable: z.boolean(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
});
const tableSpec = z.object({
  table: z.string(),
  key: z.object({ name: z.string(), type: z.enum(['integer', 'string']), generated: z.boolean() }),
  columns: z.array(columnSpec),
});
const step = z.discriminatedUnion('op', [
  z.object({ op: z.literal('create-table'), table: tableSpec }),
  z.object({ op: z.literal('rename-table'), from: z.string(), to: z.string() }),
  z.object({ op: z.literal('drop-table'), table: z.string(), loses: z.string() }),
  z.object({ op: z.literal('add-column'), table: z.string(), column: columnSpec }),
  z.object({ op: z.literal('rename-column'), table: z.string(), from: z.string(), to: z.string() }),
  z.object({ op: z.literal('convert-column'), table: z.string(), column: z.string(), from: columnKind, to: columnKind, unconvertible: z.enum(['refuse', 'set-null']), loses: z.string().optional() }),
  z.object({ op: z.literal('drop-column'), table: z.string(), column: z.string(), loses: z.string() }),
  z.object({ op: z.literal('add-index'), table: z.string(), column: z.string(), unique: z.boolean(), sorted: z.boolean().optional() }),
  z.object({ op: z.literal('drop-index'), table: z.string(), column: z.string(), sorted: z.boolean().optional() }),
  z.object({ op: z.literal('search-index'), table: z.string(), columns: z.array(z.string()) }),
]);
const plan = z.object({
  follows: z.string().nullable(),
  summary: z.array(z.string()),
  steps: z.array(step),
  schema: z.object({ tables: z.array(tableSpec) }),
});

/** A migration file that is not one: named with the file and the first problem. */
export class MigrationFileError extends Error {
  override readonly name = 'MigrationFileError';
}

/** Checks a migration file's JSON; throws MigrationFileError naming the file and what is wrong. */
export function parseMigration(source: MigrationSource): Migration {
  const parsed = plan.safeParse(source.plan);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MigrationFileError(`migrations/${source.id}.json is not a migration: ${issue.path.join('.') || '(the file)'}: ${issue.message}`);
  }
  return { id: source.id, ...(parsed.data as MigrationPlan) };
}
