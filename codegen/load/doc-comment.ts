import { createRequire } from 'node:module';

/** TypeScript (as ts-morph bundles it), loaded on the first doc comment read: `lint` never reads one. */
let typescript: typeof import('ts-morph').ts | undefined;
const tsOf = () => (typescript ??= (createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph')).ts);

/**
 * The doc comment written above a definition file's `export default` (its text, tags left out), or
 * undefined when there is none. The OpenAPI document uses it as the description of the tag and the
 * operations of that declaration, so a definition is documented once, where it is written.
 */
export function defaultExportDocComment(fileName: string, text: string): string | undefined {
  const ts = tsOf();
  const statement =
    exportAssignmentOfHead(fileName, text) ??
    ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true).statements.find(ts.isExportAssignment);
  if (statement === undefined) return undefined;
  const comments = ts
    .getJSDocCommentsAndTags(statement)
    .filter(ts.isJSDoc)
    // Lines wrapped in the source join into one paragraph; a blank line still separates paragraphs.
    .map((doc) => (ts.getTextOfJSDocComment(doc.comment) ?? '').trim().replace(/([^\n])\n(?!\n)/g, '$1 '))
    .filter((comment) => comment !== '');
  return comments.at(-1);
}

/**
 * The `export default` statement parsed from the file's head only: the text before the line that
 * starts with `export default`, then `export default 0;`. Its doc comment is the real statement's
 * (a doc comment belongs to what follows it), and the declaration itself, most of the file, is not
 * parsed: generate reads 1,000 of these. Undefined when the head does not end in that statement
 * exactly there (the words inside a comment or a string): the caller parses the whole file then.
 */
function exportAssignmentOfHead(fileName: string, text: string) {
  const ts = tsOf();
  const start = text.search(/^export default\b/m);
  if (start < 0) return undefined;
  const head = ts.createSourceFile(fileName, `${text.slice(0, start)}export default 0;`, ts.ScriptTarget.Latest, true);
  const last = head.statements.at(-1);
  return last !== undefined && ts.isExportAssignment(last) && last.getStart(head) === start ? last : undefined;
}
