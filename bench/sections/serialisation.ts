import type { BenchOptions } from '../lib/options.ts';
import type { Log, SectionResult } from '../lib/section.ts';

/** Placeholder until the probe is written. */
export async function serialisation(_options: BenchOptions, _log: Log): Promise<SectionResult> {
  return { tables: [], targets: [] };
}
