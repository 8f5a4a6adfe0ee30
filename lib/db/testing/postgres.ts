import { randomBytes } from "node:crypto";
import pg from "pg";

export const DEFAULT_TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export type ThrowawayDatabase = {
  /** Connection URL of the new, empty database. */
  url: string;
  name: string;
  /** Drops the database, disconnecting anyone still attached. */
  drop(): Promise<void>;
};

/**
 * Creates an empty database with a unique name on the local Postgres server (`TEST_POSTGRES_URL`, default
 * postgres://postgres@127.0.0.1:5432/postgres). Fails loudly, never skips, when the server is unreachable.
 */
export async function createThrowawayDatabase(prefix = "credence_test"): Promise<ThrowawayDatabase> {
  const adminUrl = process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`.toLowerCase();
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`invalid database name ${name}`);
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The test Postgres server at ${redact(adminUrl)} is unreachable (${reason}). Start it with ` +
        "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` or set TEST_POSTGRES_URL.",
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
