import { describe } from 'vitest';

/**
 * Whether this is `npm run test:reliability` (RELIABILITY=full): the long probes (a full disk with a
 * queued job, the database folder removed, the socket flood, the half-gigabyte list, PostgreSQL
 * restarted under load, timing) run there only, once each; `npm test` runs their bounded forms in
 * test/e2e.
 */
export const fullReliabilityRun = process.env.RELIABILITY === 'full';

/** `describe` for a long probe: skipped outside `npm run test:reliability`, naming that command once. */
export function describeInFullRun(name: string, body: () => void): void {
  if (fullReliabilityRun) describe(name, body);
  else describe.skip(`${name} (npm run test:reliability runs it)`, body);
}
