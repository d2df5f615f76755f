export { quoteName } from '../quote-name.ts';

export const ftsTableOf = (table: string) => `${table}__search`;
