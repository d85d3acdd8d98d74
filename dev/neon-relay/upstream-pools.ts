import pg from "pg";
import type { Credentials } from "./sql-request";
import type { UpstreamPostgres } from "./types";

/**
 * Every value stays exactly as Postgres wrote it in text format, so the driver's own type
 * parsers (the ones production uses against Neon) do the conversion on the client side.
 */
const keepPostgresText: pg.CustomTypesConfig = {
  getTypeParser: (() => (text: string) => text) as pg.CustomTypesConfig["getTypeParser"],
};

/** One small pg pool per distinct user/password/database, all aimed at the same upstream. */
export class UpstreamPools {
  private readonly pools = new Map<string, pg.Pool>();

  constructor(
    private readonly upstream: UpstreamPostgres,
    private readonly poolSize: number,
  ) {}

  poolFor(credentials: Credentials): pg.Pool {
    const key = JSON.stringify([credentials.user, credentials.password ?? null, credentials.database]);
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new pg.Pool({
        host: this.upstream.host,
        port: this.upstream.port,
        user: credentials.user,
        password: credentials.password,
        database: credentials.database,
        types: keepPostgresText,
        max: this.poolSize,
        idleTimeoutMillis: 30_000,
        connectionTimeoutMillis: 10_000,
      });
      // An idle connection dropped by the server must not crash the process; the pool replaces it.
      pool.on("error", () => {});
      this.pools.set(key, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.end()));
  }
}
