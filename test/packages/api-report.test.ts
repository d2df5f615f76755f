import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiReports, outdatedReports } from '../../tools/api-report.ts';

describe('the public API report (api-report/*.api.txt)', () => {
  it('lists every name the package entries export, as committed: a change of the public API is a reviewed change', () => {
    // On failure: if the change is meant, `npm run api:report` and commit the reports.
    expect(outdatedReports()).toEqual([]);
    // A TypeScript program of the whole repository: seconds alone, longer on a loaded machine.
  }, 120_000);

  it('keeps the plumbing out of @convapi/runtime', () => {
    const runtime = apiReports().get('api-report/runtime.api.txt')!;
    for (const internal of [
      'SETTLED',
      'settledNow',
      'quoteName',
      'toFtsQuery',
      'JSON_SERIALISER_STATE',
      'handleArrival',
    ]) {
      expect(runtime).not.toMatch(new RegExp(`^\\w+ ${internal}$`, 'm'));
    }
    expect(runtime).toMatch(/^function collectionHandlers$/m);
  }, 120_000);

  it("names every export of the package entries and of the runtime's folder lists: no `export *`", () => {
    const lists = ['dsl/index.ts', 'runtime/index.ts', 'runtime/cli/index.ts', 'runtime/errors/index.ts'];
    for (const list of lists)
      expect(readFileSync(new URL(`../../${list}`, import.meta.url), 'utf8'), list).not.toMatch(/^export \* from/m);
  });
});
