import { PGlite } from "@electric-sql/pglite";
import { neonConfig } from "@neondatabase/serverless";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NeonRelay, startNeonRelay } from "../../dev/neon-relay";
import { servePglite } from "../../dev/pglite-server";
import { neonDatabase } from "../../lib/kernel/db/neon";

/**
 * The worker's database session (lib/kernel/db/neon.ts): a one-shot query goes over Neon's HTTP
 * path and opens no connection; only a transaction opens the WebSocket pool, once per session.
 */
describe("the worker's Neon session", () => {
  let pglite: PGlite;
  let server: Awaited<ReturnType<typeof servePglite>>;
  let relay: NeonRelay;
  let sockets = 0;
  const original = neonConfig.webSocketConstructor;
  beforeAll(async () => {
    pglite = await PGlite.create();
    server = await servePglite(pglite);
    relay = await startNeonRelay({
      upstream: { host: "127.0.0.1", port: server.port, user: "postgres" },
      serializeUpstreamSessions: true,
    });
    neonConfig.webSocketConstructor = class extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets += 1;
      }
    };
  });
  afterAll(async () => {
    neonConfig.webSocketConstructor = original;
    await relay?.close();
    await server?.stop();
    await pglite?.close();
  });

  it("answers reads over HTTP with no socket, and opens one pool for the session's transactions", async () => {
    const provider = neonDatabase(
      "postgresql://postgres:unused@db.local.invalid:6543/postgres",
      `${relay.host}:${relay.port}`,
    );
    const session = provider.open();
    const rows = (result: unknown) => (result as { rows: unknown[] }).rows;
    expect(rows(await session.db.execute(sql`select 41 + 1 as answer`))).toEqual([{ answer: 42 }]);
    expect(sockets).toBe(0);

    const inTransaction = await session.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table scratch (n int)`);
      await tx.execute(sql`insert into scratch values (7)`);
      return rows(await tx.execute(sql`select n from scratch`));
    });
    expect(inTransaction).toEqual([{ n: 7 }]);
    await session.db.transaction(async (tx) => tx.execute(sql`select 1`));
    expect(sockets).toBe(1);
    await session.release();
  });
});
