/** Where the store lives, parsed from DATABASE_URL (contract: `sqlite:<path>`, `sqlite::memory:`, `postgres://...`). */
export type DatabaseLocation =
  /** `createFolder`: only the default location's folder (data/) is created; any other must exist. */
  { kind: 'sqlite'; path: string; createFolder: boolean } | { kind: 'postgres'; url: string };

/** The default store: an embedded SQLite file beside the project. */
export const DEFAULT_DATABASE_URL = 'sqlite:data/app.db';

export function parseDatabaseUrl(url: string = DEFAULT_DATABASE_URL): DatabaseLocation {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === '') throw new Error(`DATABASE_URL "${url}" names no file; use sqlite:<path> or sqlite::memory:`);
    return { kind: 'sqlite', path, createFolder: url === DEFAULT_DATABASE_URL };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { kind: 'postgres', url };
  throw new Error(`DATABASE_URL "${url}" is not understood; use sqlite:<path>, sqlite::memory: or postgres://...`);
}

/** DATABASE_URL as a log line may show it: the engine and where, never a password. */
export function describeDatabaseUrl(url: string): string {
  const location = parseDatabaseUrl(url);
  if (location.kind === 'sqlite') return `sqlite:${location.path}`;
  try {
    const parsed = new URL(location.url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable)';
  }
}
