/**
 * How long a string field may be when its declaration says nothing, and how long an indexed one can
 * ever be. Lengths count what `String.prototype.length` counts (UTF-16 code units), as zod's
 * `maxLength` does; every bound is held against the worst case of 4 bytes per character in UTF-8.
 */

/**
 * The largest entry a PostgreSQL B-tree index holds (2,704 bytes, about a third of an 8 KiB page),
 * less the index tuple's header (8 bytes), the value's own length header (4 bytes), and room for the
 * identifier a sortable field's index keeps beside the value (up to 64 characters, its header and
 * alignment: 72 bytes). SQLite has no such limit; the bound is the same on both engines so that a
 * definition behaves alike on either.
 */
const INDEX_ENTRY_BYTES = 2704 - 8 - 4 - 72;

/** Worst-case bytes per character in UTF-8. */
const BYTES_PER_CHARACTER = 4;

export const STRING_LENGTHS = {
  /**
   * The most an indexed string (filterable, unique, sortable, or compared by a row rule) can
   * declare, and its bound when it declares none: 655 characters. Lint refuses a larger declared maxLength
   * (indexed-string-length).
   */
  indexed: Math.floor(INDEX_ENTRY_BYTES / BYTES_PER_CHARACTER),
  /** The bound of a string that is not indexed and declares no maxLength. Declare more where needed. */
  default: 10_000,
  /**
   * The most the searchable strings of one collection may hold together: PostgreSQL's search
   * document (a tsvector) holds at most 1 MB, and text of short words in several-byte characters
   * takes up to about 5 bytes of it per character. Lint refuses more (search-document-length).
   */
  searchDocument: 100_000,
} as const;
