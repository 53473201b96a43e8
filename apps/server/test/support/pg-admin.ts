import pg from 'pg';

/** One statement on the PostgreSQL server's admin database (creating and dropping the tests' databases). */
export async function adminQuery(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The address of database `name` on the server of the admin address. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
