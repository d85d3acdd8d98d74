import type { Database } from "./database";

/**
 * Queries built once per database client: drizzle's SQL building is most of a simple read's CPU,
 * and node-postgres names the statement so each connection parses it once. Keyed by the driver's
 * client (a Neon HTTP function, a pool, a PGlite) so a request's own wrapper around a shared client
 * reuses what an earlier request built. Never inside a transaction: a prepared query runs on the
 * client it was built on.
 */
const byClient = new WeakMap<object, Map<string, unknown>>();

export function preparedOn<T>(db: Database, name: string, build: (db: Database) => T): T {
  const client = (db as unknown as { $client?: object }).$client ?? db;
  let queries = byClient.get(client);
  if (!queries) {
    queries = new Map();
    byClient.set(client, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
