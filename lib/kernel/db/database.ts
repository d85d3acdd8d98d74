import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "../../../schema";

/** Every driver we use (Neon over WebSocket, node-postgres, PGlite) is one of these. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * A database for the length of one request or job. Workers may not share an open connection
 * between requests, so the Neon adapter opens a pool per session and ends it on release.
 */
interface DatabaseSession {
  db: Database;
  release(): Promise<void>;
}

export interface DatabaseProvider {
  open(): DatabaseSession;
}

/** A provider over a database that lives as long as the process (PGlite, a node-postgres pool). */
export function sharedDatabase(db: Database): DatabaseProvider {
  return { open: () => ({ db, release: async () => {} }) };
}
