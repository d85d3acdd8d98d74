import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Database } from "../lib/db/database";
import * as schema from "../schema";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../schema/migrations", import.meta.url));

export interface OpenedDatabase {
  db: Database;
  close(): Promise<void>;
}

/** Sees every SQL statement sent (tests count round trips with it). */
export type QueryListener = (sql: string) => void;

function logger(onQuery?: QueryListener) {
  return onQuery ? { logger: { logQuery: (query: string) => onQuery(query) } } : {};
}

/** Embedded Postgres: in memory, or persisted in `dataDir`. Migrated before it is returned. */
export async function openPglite(
  dataDir?: string,
  onQuery?: QueryListener,
): Promise<OpenedDatabase & { pglite: PGlite }> {
  const pglite = await PGlite.create(dataDir);
  const db = drizzlePglite({ client: pglite, schema, ...logger(onQuery) });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { pglite, db: db as unknown as Database, close: () => pglite.close() };
}

/** Any real Postgres (the machine's server in tests, Neon for a deploy). Migrated before returned. */
export async function openPostgres(
  connectionString: string,
  max = 10,
  onQuery?: QueryListener,
): Promise<OpenedDatabase & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString, max });
  // An idle connection the server closes (a scratch database dropped at the end of a test file)
  // is the pool's to replace; without a listener it would crash the process.
  pool.on("error", () => {});
  const db = drizzlePostgres({ client: pool, schema, ...logger(onQuery) });
  await migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { pool, db: db as unknown as Database, close: () => pool.end() };
}

/**
 * A database of its own on a real Postgres server, for one test file: created empty, dropped on
 * close, so files running side by side never share tables or migrations.
 */
export async function openScratchPostgres(
  serverUrl: string,
  onQuery?: QueryListener,
): Promise<OpenedDatabase> {
  const name = `scratch_${Date.now()}_${Math.floor(Math.random() * 1e9)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened = await openPostgres(url.toString(), 20, onQuery);
  return {
    db: opened.db,
    async close() {
      await opened.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
