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
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const statement = file.statements.find(ts.isExportAssignment);
  if (statement === undefined) return undefined;
  const comments = ts
    .getJSDocCommentsAndTags(statement)
    .filter(ts.isJSDoc)
    // Lines wrapped in the source join into one paragraph; a blank line still separates paragraphs.
    .map((doc) => (ts.getTextOfJSDocComment(doc.comment) ?? '').trim().replace(/([^\n])\n(?!\n)/g, '$1 '))
    .filter((comment) => comment !== '');
  return comments.at(-1);
}
