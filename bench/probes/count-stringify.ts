import { writeFileSync } from 'node:fs';

/**
 * Preloaded into a server process (`node --import <this file> generated/main.ts`) for the
 * serialisation probe, never during timed loads: counts JSON.stringify calls by call site and, on
 * SIGUSR2, writes the counts so far to PROBE_FILE as JSON. This makes "every response is serialised
 * once" observable from outside without touching the runtime.
 */
const counts = new Map<string, number>();
const original = JSON.stringify;

function callSite(): string {
  // Frame 0 is "Error", 1 this function, 2 the wrapper, 3 whoever called JSON.stringify.
  const frame = new Error().stack?.split('\n')[3]?.trim() ?? 'unknown';
  return frame.replace(/^at /, '').replace(/file:\/\/\S*?\/(runtime|generated|node_modules|definitions|dsl)\//, '$1/');
}

JSON.stringify = function countedStringify(this: unknown, ...args: Parameters<typeof JSON.stringify>): string {
  const site = callSite();
  counts.set(site, (counts.get(site) ?? 0) + 1);
  return original.apply(this, args);
} as typeof JSON.stringify;

process.on('SIGUSR2', () => {
  // Written with the original, so the report does not count itself.
  writeFileSync(process.env.PROBE_FILE!, original(Object.fromEntries(counts)));
});
