import { DatabaseSync } from 'node:sqlite';

/**
 * The orders table of the hand-written servers (b, h and f), with the generated store's durability
 * (WAL, synchronous=FULL; otherwise POST would compare fsync policies, not request handling) and
 * the same three statements for every one of them, so they differ in their framework only.
 */
export function openOrdersTable(path: string) {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS orders (
    order_id INTEGER PRIMARY KEY AUTOINCREMENT, item TEXT NOT NULL, quantity INTEGER NOT NULL, created_at TEXT NOT NULL)`);
  return {
    selectOne: db.prepare('SELECT order_id, item, quantity, created_at FROM orders WHERE order_id = ?'),
    selectPage: db.prepare(
      'SELECT order_id, item, quantity, created_at FROM orders ORDER BY order_id LIMIT ? OFFSET ?',
    ),
    insert: db.prepare(
      'INSERT INTO orders (item, quantity, created_at) VALUES (?, ?, ?) RETURNING order_id, item, quantity, created_at',
    ),
  };
}
