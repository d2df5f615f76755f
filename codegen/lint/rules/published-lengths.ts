import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';
import { publishedLeaves } from './published-leaves.ts';

/**
 * The length bound of every string leaf a published version still has, compared with the one
 * recorded when it was published:
 * - lower now: published-shape-changed (its writers' longer values would be refused);
 * - higher now: published-shape-extended (its readers may receive longer values than it documented);
 * - not recorded (published before strings were bounded): published-string-bounded, a warning that
 *   says what the version accepts now, until the bound is recorded by publishing the version again.
 * Leaves whose kind or requiredness changed, or that are gone, are publishedShapes' to report.
 */
export const publishedStringLengths: Rule = ({ model, published }) =>
  publishedLeaves(model, published).flatMap(({ version, versionName, next, before, now, finding }): Finding[] => {
    if (now.maxLength === undefined || now.maxLength === before.maxLength) return [];
    // An enum was bounded by its values: what opening it to any string means is publishedEnumValues' to say.
    if (before.values !== undefined) return [];
    if (before.maxLength === undefined)
      return [
        finding(
          'published-string-bounded',
          `${version} was published before strings had a length bound: ${before.path} now accepts at most ${now.maxLength} characters, and a longer value is refused with 400 value_too_long; declare a larger maxLength if its clients need one, then record the bound with \`npm run generate -- --publish ${versionName}\``,
        ),
      ];
    if (now.maxLength < before.maxLength)
      return [
        finding(
          'published-shape-changed',
          `${version} lowered the maxLength of ${before.path} from ${before.maxLength} to ${now.maxLength}, so values its writers could send are refused; keep ${before.maxLength} in ${versionName} and declare the new bound in a new version (${next})`,
        ),
      ];
    return [
      finding(
        'published-shape-extended',
        `${version} raised the maxLength of ${before.path} from ${before.maxLength} to ${now.maxLength}; readers of the published version may receive longer values than its document said: consider a new version`,
      ),
    ];
  });
