import { countOf, type Report } from './report.ts';

/** Version of the JSON shape below; raised on any incompatible change. */
export const JSON_FORMAT_VERSION = 1;

/**
 * `--format json`: one object,
 * `{ "version": 1, "errors": n, "warnings": n, "diagnostics": [{ "rule", "severity", "message",
 * "file", "line", "column", "endLine", "endColumn", "sourceLine", "related"? }] }`, files relative
 * to the project root, lines and columns 1-based.
 */
export function jsonFormat(report: Report): string {
  const diagnostics = report.diagnostics.map((diagnostic) => ({
    rule: diagnostic.rule,
    severity: diagnostic.severity,
    message: diagnostic.message,
    file: diagnostic.file,
    line: diagnostic.line,
    column: diagnostic.column,
    endLine: diagnostic.endLine,
    endColumn: diagnostic.endColumn,
    sourceLine: diagnostic.sourceLine,
    ...(diagnostic.related === undefined ? {} : { related: diagnostic.related }),
  }));
  return `${JSON.stringify({ version: JSON_FORMAT_VERSION, errors: countOf(report, 'error'), warnings: countOf(report, 'warning'), diagnostics }, null, 2)}\n`;
}
