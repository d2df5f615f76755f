import { formatDiagnostic } from '../diagnostic.ts';
import { countOf, type Report } from './report.ts';

/** Today's format: `path:line:col severity rule-id message`, the offending line, then a summary. */
export function textFormat(report: Report): string {
  const lines = report.diagnostics.map(formatDiagnostic);
  lines.push(
    report.diagnostics.length === 0
      ? `${report.subject}: no problems`
      : `${countOf(report, 'error')} error(s), ${countOf(report, 'warning')} warning(s)`,
  );
  return `${lines.join('\n')}\n`;
}
