import { formatMiB, formatMs, formatNumber, formatPercent } from './format.ts';
import type { Summary } from './rounds.ts';
import type { Column } from './table.ts';

/** The columns every load table shows for one measured server, in this order. */
export const LOAD_COLUMNS: readonly Column[] = [
  { title: 'req/s', align: 'right' },
  { title: 'spread', align: 'right' },
  { title: 'p50 ms', align: 'right' },
  { title: 'p99 ms', align: 'right' },
  { title: 'peak RSS MiB', align: 'right' },
];

/** A summary's cells under LOAD_COLUMNS; `(!)` marks requests/s from rounds with unexpected responses. */
export function loadCells(summary: Summary): string[] {
  return [
    `${formatNumber(summary.requestsPerSecond)}${summary.unexpected > 0 ? ' (!)' : ''}`,
    formatPercent(summary.spread),
    formatMs(summary.p50Ms),
    formatMs(summary.p99Ms),
    formatMiB(summary.peakRssKib),
  ];
}
