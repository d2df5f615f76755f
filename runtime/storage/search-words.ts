/**
 * The words of a search text, as both engines search them: split on white space, each word stripped
 * of everything but letters, digits and underscores (so no text is a query syntax error). Every word
 * must match, as a prefix.
 */
export function searchWords(text: string): string[] {
  return text
    .split(/\s+/u)
    .map((word) => word.replace(/[^\p{L}\p{N}_]/gu, ''))
    .filter((word) => word !== '');
}
