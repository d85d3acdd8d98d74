import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Database } from "../lib/kernel/db/database";
import * as schema from "../schema";
import { localDataDir } from "./paths";

const MIGRATIONS_FOLDER = fileURLToPath(new URL("../schema/migrations", import.meta.url));

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

/** The migrations' fingerprint: a copy of a migrated database is good while it is the same. */
function migrationsFingerprint(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS_FOLDER);
  return hash.digest("hex").slice(0, 12);
}

/**
 * An in-memory PGlite already migrated, from a dump of a migrated one kept under .data/ (made once
 * per set of migrations): loading it takes about a second, against about four to create and migrate.
 */
export async function openMigratedPglite(
  onQuery?: QueryListener,
): Promise<OpenedDatabase & { pglite: PGlite }> {
  const file = join(localDataDir("pglite-dumps"), `migrated-${migrationsFingerprint()}.tar.gz`);
  let dump: Uint8Array | undefined = await readFile(file).catch(() => undefined);
  if (!dump) {
    const fresh = await openPglite();
    dump = new Uint8Array(await (await fresh.pglite.dumpDataDir("gzip")).arrayBuffer());
    await fresh.close();
    await mkdir(localDataDir("pglite-dumps"), { recursive: true });
    // Write then rename, so a file beside this one never reads half a dump.
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, dump);
    await rename(partial, file);
  }
  const pglite = await PGlite.create({ loadDataDir: new Blob([dump as Uint8Array<ArrayBuffer>]) });
  const db = drizzlePglite({ client: pglite, schema, ...logger(onQuery) });
  return { pglite, db: db as unknown as Database, close: () => pglite.close() };
}

/**
 * A database of its own on a real Postgres server, for one test file: a copy of a migrated template
 * (made once per set of migrations, under a lock, so files starting side by side make it once),
 * dropped on close, so files running side by side never share tables.
 */
export async function openScratchPostgres(
  serverUrl: string,
  onQuery?: QueryListener,
): Promise<OpenedDatabase> {
  const template = await migratedTemplate(serverUrl);
  const name = `scratch_${Date.now()}_${Math.floor(Math.random() * 1e9)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 20 });
  // An idle connection the server closes (the database dropped at the end of a file) is the pool's
  // to replace; without a listener it would crash the process.
  pool.on("error", () => {});
  const db = drizzlePostgres({ client: pool, schema, ...logger(onQuery) }) as unknown as Database;
  return {
    db,
    async close() {
      await pool.end();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** The migrated template database for the current migrations, made if missing; older ones dropped. */
async function migratedTemplate(serverUrl: string): Promise<string> {
  const template = `copm_template_${migrationsFingerprint()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock(hashtext('copm-test-template'))");
    const found = await admin.query("select datname from pg_database where datname like 'copm_template_%'");
    const names = found.rows.map((row: { datname: string }) => row.datname);
    if (!names.includes(template)) {
      await admin.query(`create database ${template}`);
      const url = new URL(serverUrl);
      url.pathname = `/${template}`;
      const migrated = await openPostgres(url.toString(), 1);
      await migrated.close();
      for (const stale of names) await admin.query(`drop database if exists ${stale} with (force)`);
    }
    await admin.query("select pg_advisory_unlock(hashtext('copm-test-template'))");
  } finally {
    await admin.end();
  }
  return template;
}
