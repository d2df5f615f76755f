import { githubFormat } from './github.ts';
import { jsonFormat } from './json.ts';
import type { Report } from './report.ts';
import { sarifFormat } from './sarif.ts';
import { textFormat } from './text.ts';

/** Every output format of lint, by the name `--format` takes. */
export const FORMATS = {
  text: textFormat,
  json: jsonFormat,
  sarif: sarifFormat,
  github: githubFormat,
} as const satisfies Record<string, (report: Report) => string>;

export type FormatName = keyof typeof FORMATS;

export const isFormatName = (name: string): name is FormatName => Object.hasOwn(FORMATS, name);

export { JSON_FORMAT_VERSION } from './json.ts';
export type { Report } from './report.ts';
