import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';
import { publishedLeaves, type PublishedLeaf } from './published-leaves.ts';

const quoted = (values: readonly string[]) => values.map((value) => `"${value}"`).join(', ');

function enumFindings({ version, versionName, next, before, now, finding }: PublishedLeaf): Finding[] {
  const path = before.path;
  if (before.values === undefined)
    return now.values === undefined
      ? []
      : [
          finding(
            'published-shape-changed',
            `${version} limited ${path} to the values ${quoted(now.values)}, so other values its writers could send are refused; keep ${path} open in ${versionName} and declare the values in a new version (${next})`,
          ),
        ];
  if (now.values === undefined)
    return [
      finding(
        'published-shape-extended',
        `${version} no longer limits ${path} to ${quoted(before.values)}; readers of the published version may receive values its document did not list: consider a new version`,
      ),
    ];
  const removed = before.values.filter((value) => !now.values!.includes(value));
  const added = now.values.filter((value) => !before.values!.includes(value));
  const them = removed.length === 1 ? 'it' : 'them';
  return [
    ...(removed.length === 0
      ? []
      : [
          finding(
            'published-shape-changed',
            `${version} removed ${quoted(removed)} from the values of ${path}, so writes its clients could send are refused; keep ${them} in ${versionName} and drop ${them} in a new version (${next})`,
          ),
        ]),
    ...(added.length === 0
      ? []
      : [
          finding(
            'published-shape-extended',
            `${version} added ${quoted(added)} to the values of ${path}; readers of the published version may receive a value its document did not list: consider a new version`,
          ),
        ]),
  ];
}

/**
 * The values of every enum leaf (and array of enums) a published version still has, compared with
 * those recorded when it was published. A leaf recorded without values took any value of its kind.
 * - a value gone, or a leaf now limited to listed values: published-shape-changed (writes its clients
 *   could send are refused);
 * - a value added, or the list dropped: published-shape-extended (its readers may receive a value
 *   its document did not list, which breaks clients that switch over the listed ones).
 */
export const publishedEnumValues: Rule = ({ model, published }) =>
  publishedLeaves(model, published).flatMap(enumFindings);
