import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { Report } from './report.ts';

export const TOOL_NAME = 'convapi-lint';

/**
 * `--format sarif`: a SARIF 2.1.0 log with one run; the tool's rules are every rule of the registry
 * that ran (id, summary, help text, default level), each result names its rule, level, message and
 * one location: the artifact's URI relative to the project root (uriBaseId %SRCROOT%) and the region's
 * start and end line and column.
 */
export function sarifFormat(report: Report): string {
  const index = new Map(report.rules.map((rule, position) => [rule.id, position]));
  const rules: ReportingDescriptor[] = report.rules.map((rule) => ({
    id: rule.id,
    shortDescription: { text: rule.summary },
    help: { text: rule.help },
    defaultConfiguration: { level: rule.severity },
  }));
  const results: Result[] = report.diagnostics.map((diagnostic) => ({
    ruleId: diagnostic.rule,
    ...(index.has(diagnostic.rule) ? { ruleIndex: index.get(diagnostic.rule)! } : {}),
    level: diagnostic.severity,
    message: { text: diagnostic.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeURI(diagnostic.file), uriBaseId: '%SRCROOT%' },
          region: {
            startLine: diagnostic.line,
            startColumn: diagnostic.column,
            endLine: diagnostic.endLine,
            endColumn: diagnostic.endColumn,
          },
        },
      },
    ],
    ...(diagnostic.related === undefined
      ? {}
      : {
          relatedLocations: [
            {
              id: 1,
              physicalLocation: {
                artifactLocation: { uri: encodeURI(diagnostic.related.file), uriBaseId: '%SRCROOT%' },
                region: { startLine: diagnostic.related.line, startColumn: diagnostic.related.column },
              },
            },
          ],
        }),
  }));
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: TOOL_NAME, rules } }, results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
