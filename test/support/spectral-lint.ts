// Runs Spectral with its `spectral:oas` ruleset on one OpenAPI document and prints the results as
// JSON: `node test/support/spectral-lint.ts DOCUMENT`. A process of its own, so Spectral (CommonJS)
// and its dependencies load as Node loads them, outside the test runner's module resolution.
import { readFileSync } from 'node:fs';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';

const documentPath = process.argv[2];
if (documentPath === undefined) throw new Error('usage: node test/support/spectral-lint.ts DOCUMENT');
const spectral = new spectralCore.Spectral();
spectral.setRuleset({ extends: [[spectralRulesets.oas, 'recommended']] } as never);
const results = await spectral.run(
  new spectralCore.Document(readFileSync(documentPath, 'utf8'), spectralParsers.Json, documentPath),
);
process.stdout.write(
  JSON.stringify(
    results.map(({ code, severity, path, message }) => ({
      code: String(code),
      severity,
      path: path.join('.'),
      message,
    })),
  ),
);
