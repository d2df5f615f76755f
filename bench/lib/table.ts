export type Align = 'left' | 'right';

export interface Column {
  readonly title: string;
  readonly align?: Align;
}

export interface Table {
  readonly title: string;
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly string[])[];
  /** Lines printed under the table (targets, caveats). */
  readonly notes?: readonly string[];
}

/**
 * A table as GitHub-flavoured Markdown with padded cells, so the same text reads well in a terminal
 * and can be pasted into BENCHMARKS.md as it is.
 */
export function renderTable({ title, columns, rows, notes = [] }: Table): string {
  const widths = columns.map((column, index) =>
    Math.max(3, column.title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const pad = (text: string, index: number) => {
    const width = widths[index]!;
    return columns[index]!.align === 'right' ? text.padStart(width) : text.padEnd(width);
  };
  const line = (cells: readonly string[]) =>
    `| ${columns.map((_, index) => pad(cells[index] ?? '', index)).join(' | ')} |`;
  const rule = `| ${columns.map((column, index) => (column.align === 'right' ? `${'-'.repeat(widths[index]! - 1)}:` : '-'.repeat(widths[index]!))).join(' | ')} |`;
  const body = [line(columns.map((column) => column.title)), rule, ...rows.map(line)];
  return [`### ${title}`, '', ...body, ...(notes.length > 0 ? ['', ...notes.map((note) => `- ${note}`)] : [])].join(
    '\n',
  );
}
