/**
 * The name of the index-th synthetic collection (1-based): `c0001-widgets`. Plural in its last word
 * and lowercase-hyphenated, so the definitions linter accepts it; zero-padded so sorted file order is
 * declaration order and "the first collection" is the same everywhere.
 */
export function syntheticCollectionName(index: number): string {
  return `c${String(index).padStart(4, '0')}-widgets`;
}
