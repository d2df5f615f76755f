import { shapeOf } from '../../versions/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { accessOf } from './published-rules.ts';

/**
 * The length bound of every string leaf a published version still has, compared with the one
 * recorded when it was published:
 * - lower now: published-shape-changed (its writers' longer values would be refused);
 * - higher now: published-shape-extended (its readers may receive longer values than it documented);
 * - not recorded (published before strings were bounded): published-string-bounded, a warning that
 *   says what the version accepts now, until the bound is recorded by publishing the version again.
 * Leaves whose kind or requiredness changed, or that are gone, are publishedShapes' to report.
 */
export const publishedStringLengths: Rule = ({ model, published }) => {
  const findings: Finding[] = [];
  const declarations = allDeclarations(model);
  for (const [name, versions] of Object.entries(published ?? {})) {
    const declaration = declarations.find((candidate) => candidate.name === name);
    for (const [versionName, recorded] of Object.entries(versions)) {
      const version = declaration?.versions.find((candidate) => candidate.name === versionName);
      if (declaration === undefined || version === undefined) continue;
      const current = new Map(shapeOf(version).map((leaf) => [leaf.path, leaf]));
      for (const before of recorded) {
        const now = current.get(before.path);
        if (now?.maxLength === undefined || now.kind !== before.kind || now.maxLength === before.maxLength) continue;
        const at = accessOf(version, before.path) ?? ['versions', versionName];
        const finding = (rule: string, message: string) =>
          findings.push({ rule, source: declaration.source, at, message });
        if (before.maxLength === undefined) {
          finding(
            'published-string-bounded',
            `${name} ${versionName} was published before strings had a length bound: ${before.path} now accepts at most ${now.maxLength} characters, and a longer value is refused with 400 value_too_long; declare a larger maxLength if its clients need one, then record the bound with \`npm run generate -- --publish ${versionName}\``,
          );
        } else if (now.maxLength < before.maxLength) {
          finding(
            'published-shape-changed',
            `${name} ${versionName} lowered the maxLength of ${before.path} from ${before.maxLength} to ${now.maxLength}, so values its writers could send are refused; keep ${before.maxLength} in ${versionName} and declare the new bound in a new version (v${Number(versionName.slice(1)) + 1})`,
          );
        } else {
          finding(
            'published-shape-extended',
            `${name} ${versionName} raised the maxLength of ${before.path} from ${before.maxLength} to ${now.maxLength}; readers of the published version may receive longer values than its document said: consider a new version`,
          );
        }
      }
    }
  }
  return findings;
};
