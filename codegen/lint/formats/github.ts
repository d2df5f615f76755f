import type { Report } from './report.ts';

/** Workflow-command escaping of the message (data): %, CR and LF. */
const escapeData = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
/** Workflow-command escaping of a property value: the data's, plus ':' and ','. */
const escapeProperty = (text: string) => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/**
 * `--format github`: one GitHub Actions workflow command per diagnostic,
 * `::error file=definitions/orders.ts,line=3,col=3,endLine=3,endColumn=16,title=plural-collection::message`
 * (`::warning` for warnings), which the runner turns into annotations on the pull request.
 */
export function githubFormat(report: Report): string {
  return report.diagnostics
    .map((diagnostic) => {
      const properties = [
        `file=${escapeProperty(diagnostic.file)}`,
        `line=${diagnostic.line}`,
        `col=${diagnostic.column}`,
        `endLine=${diagnostic.endLine}`,
        `endColumn=${diagnostic.endColumn}`,
        `title=${escapeProperty(diagnostic.rule)}`,
      ];
      return `::${diagnostic.severity} ${properties.join(',')}::${escapeData(diagnostic.message)}\n`;
    })
    .join('');
}
