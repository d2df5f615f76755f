import pg from 'pg';

/** What the PostgreSQL server at `url` says it is (SELECT version()): the version a report names is the one that ran. */
export async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    return rows[0]!.version;
  } finally {
    await client.end();
  }
}
