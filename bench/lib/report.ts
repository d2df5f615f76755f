import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const START = '<!-- bench:figures:start -->';
const END = '<!-- bench:figures:end -->';

/**
 * Replaces the figures block of a Markdown file (between the bench:figures markers) with `figures`,
 * leaving the hand-written text around it alone; appends a block when the file has none yet.
 */
export function writeFiguresBlock(file: string, figures: string): void {
  const block = `${START}\n${figures.trim()}\n${END}`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start !== -1 && end > start
      ? `${text.slice(0, start)}${block}${text.slice(end + END.length)}`
      : `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}\n${block}\n`;
  writeFileSync(file, next);
}
