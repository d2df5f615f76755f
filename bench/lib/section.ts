import type { Table } from './table.ts';

/** One target of the benchmark and how this run did against it. */
export interface TargetCheck {
  readonly name: string;
  readonly target: string;
  readonly figure: string;
  readonly verdict: 'pass' | 'FAIL' | 'n/a';
}

/** What a section hands back to the runner: its tables, and its targets for the summary. */
export interface SectionResult {
  readonly tables: readonly Table[];
  readonly targets: readonly TargetCheck[];
}

export type Log = (line: string) => void;
