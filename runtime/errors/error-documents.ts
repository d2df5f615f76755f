/**
 * Where the documentation of an error code lives: a function from the code to an address, or
 * undefined for none. The error renderer puts its answer in `errors[].document` of every entry that
 * does not name a document of its own.
 */
export type DocumentFor = (code: string) => string | undefined;

/**
 * The documentation addresses under one base (ERROR_DOCS_URL): `{code}` in the base is replaced by
 * the entry's code, otherwise the code is appended, so both `https://docs.example/errors/{code}.html`
 * and `https://docs.example/errors#` work.
 *
 * @example
 * documentsAt('https://docs.example/errors/')('missing_field'); // 'https://docs.example/errors/missing_field'
 */
export function documentsAt(base: string): DocumentFor {
  if (base.includes('{code}')) return (code) => base.replaceAll('{code}', encodeURIComponent(code));
  return (code) => `${base}${encodeURIComponent(code)}`;
}
