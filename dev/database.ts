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

/** Embedded Postgres: in memory, or persisted in `dataDir`. Migrated before it is returned. */
export async function openPglite(dataDir?: string): Promise<OpenedDatabase & { pglite: PGlite }> {
  const pglite = await PGlite.create(dataDir);
  const db = drizzlePglite({ client: pglite, schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { pglite, db: db as unknown as Database, close: () => pglite.close() };
}

/** Any real Postgres (the machine's server in tests, Neon for a deploy). Migrated before returned. */
export async function openPostgres(
  connectionString: string,
  max = 10,
): Promise<OpenedDatabase & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString, max });
  const db = drizzlePostgres({ client: pool, schema });
  await migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { pool, db: db as unknown as Database, close: () => pool.end() };
}
