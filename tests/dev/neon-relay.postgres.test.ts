import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { Client, NeonDbError, neon, neonConfig, Pool } from "@neondatabase/serverless";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ws from "ws";
import { type NeonRelay, startNeonRelay, type UpstreamPostgres } from "../../dev/neon-relay";
import { servePglite } from "../../dev/pglite-server";

/** A Postgres for the relay to sit in front of, plus a way to watch its connections. */
interface UpstreamUnderTest {
  upstream: UpstreamPostgres;
  /** PGlite has one backend for all connections, so the relay must make them take turns. */
  singleBackend: boolean;
  /** Credentials the driver sends; the host is deliberately one the relay must not dial. */
  user: string;
  password: string;
  database: string;
  /** Connections the upstream currently has open with this application_name. */
  connectionsNamed(applicationName: string): Promise<number>;
  stop(): Promise<void>;
}

async function startPglite(): Promise<UpstreamUnderTest> {
  const db = await PGlite.create();
  // The local stack's own server (dev/pglite-server.ts), with its connection cap.
  const server = await servePglite(db);
  const port = server.port;
  return {
    upstream: { host: "127.0.0.1", port },
    singleBackend: true,
    user: "postgres",
    password: "unused-by-pglite",
    database: "postgres",
    // PGlite is one backend behind a multiplexer, so only the socket count is observable.
    connectionsNamed: async () => server.activeConnections(),
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

async function startRealPostgres(databaseUrl: string): Promise<UpstreamUnderTest> {
  const url = new URL(databaseUrl);
  const user = decodeURIComponent(url.username) || "postgres";
  const password = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.slice(1)) || user;
  const observer = new pg.Client({ connectionString: databaseUrl });
  await observer.connect();
  return {
    upstream: { host: url.hostname, port: Number(url.port || 5432) },
    singleBackend: false,
    user,
    password,
    database,
    async connectionsNamed(applicationName) {
      const { rows } = await observer.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
        [applicationName],
      );
      return rows[0]?.n ?? 0;
    },
    stop: () => observer.end(),
  };
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function steadyCount(count: () => Promise<number>): Promise<number> {
  let previous = await count();
  for (let attempt = 0; attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const current = await count();
    if (current === previous) return current;
    previous = current;
  }
  throw new Error("connection count never settled");
}

function describeRelayAgainst(label: string, start: () => Promise<UpstreamUnderTest>): void {
  describe(`neon relay in front of ${label}`, () => {
    let target: UpstreamUnderTest;
    let relay: NeonRelay;
    let connectionString: string;
    const table = `relay_${randomUUID().replaceAll("-", "").slice(0, 12)}`;

    beforeAll(async () => {
      target = await start();
      relay = await startNeonRelay({
        upstream: target.upstream,
        serializeUpstreamSessions: target.singleBackend,
      });
      // neonConfig is global; the suites run one after another, each pointing it at its relay.
      Object.assign(neonConfig, relay.clientConfig);
      if (typeof globalThis.WebSocket === "undefined") neonConfig.webSocketConstructor = ws;
      const credentials = `${encodeURIComponent(target.user)}:${encodeURIComponent(target.password)}`;
      connectionString = `postgresql://${credentials}@db.example.invalid:6543/${target.database}`;
      await neon(connectionString).query(
        `CREATE TABLE ${table} (id int PRIMARY KEY, name text NOT NULL, balance numeric(12,2) NOT NULL DEFAULT 0)`,
      );
    });

    afterAll(async () => {
      try {
        if (relay) await neon(connectionString).query(`DROP TABLE IF EXISTS ${table}`);
      } finally {
        await relay?.close();
        await target?.stop();
      }
    });

    async function rowsOf(query: string): Promise<Record<string, unknown>[]> {
      return neon(connectionString).query(query);
    }

    it("returns parametrised HTTP query values as Postgres text for the driver's own parsers", async () => {
      const sql = neon(connectionString);
      const at = new Date("2024-05-06T07:08:09.123Z");
      const rows = await sql`
        SELECT ${41}::int + 1 AS i, ${"héllo 'quoted'"}::text AS t, ${"12345678901234567890.123"}::numeric AS n,
               ${at}::timestamptz AS ts, ${true}::boolean AS b, ${{ a: [1, "x"] }}::json AS j,
               ${null}::text AS nothing`;
      expect(rows).toEqual([
        {
          i: 42,
          t: "héllo 'quoted'",
          n: "12345678901234567890.123",
          ts: at,
          b: true,
          j: { a: [1, "x"] },
          nothing: null,
        },
      ]);

      const full = await sql.query("SELECT $1::int AS i, $2::text AS t", [7, "seven"], { fullResults: true });
      expect(full.command).toBe("SELECT");
      expect(full.rowCount).toBe(1);
      expect(full.fields.map((field) => [field.name, field.dataTypeID])).toEqual([
        ["i", 23],
        ["t", 25],
      ]);
      expect(full.rows).toEqual([{ i: 7, t: "seven" }]);

      const inserted = await sql.query(
        `INSERT INTO ${table} (id, name) VALUES ($1, $2), ($3, $4)`,
        [100, "x", 101, "y"],
        { fullResults: true },
      );
      expect([inserted.command, inserted.rowCount]).toEqual(["INSERT", 2]);
      await sql.query(`DELETE FROM ${table} WHERE id >= 100`);
    });

    it("commits an HTTP transaction batch together", async () => {
      const sql = neon(connectionString);
      const [first, second, count] = await sql.transaction([
        sql`INSERT INTO ${sql.unsafe(table)} (id, name, balance) VALUES (1, 'alice', 100) RETURNING id`,
        sql`INSERT INTO ${sql.unsafe(table)} (id, name, balance) VALUES (2, 'bob', 50) RETURNING id`,
        sql`SELECT count(*)::int AS n FROM ${sql.unsafe(table)}`,
      ]);
      expect(first).toEqual([{ id: 1 }]);
      expect(second).toEqual([{ id: 2 }]);
      expect(count).toEqual([{ n: 2 }]);
      expect(await rowsOf(`SELECT id, name FROM ${table} ORDER BY id`)).toEqual([
        { id: 1, name: "alice" },
        { id: 2, name: "bob" },
      ]);
    });

    it("rolls an HTTP transaction batch back entirely when one statement fails", async () => {
      const sql = neon(connectionString);
      const failing = sql.transaction([
        sql`INSERT INTO ${sql.unsafe(table)} (id, name) VALUES (3, 'carol')`,
        sql`UPDATE ${sql.unsafe(table)} SET name = 'changed' WHERE id = 1`,
        sql`INSERT INTO ${sql.unsafe(table)} (id, name) VALUES (2, 'duplicate bob')`,
      ]);
      await expect(failing).rejects.toMatchObject({ name: "NeonDbError", code: "23505" });
      expect(await rowsOf(`SELECT id, name FROM ${table} ORDER BY id`)).toEqual([
        { id: 1, name: "alice" },
        { id: 2, name: "bob" },
      ]);
    });

    it("applies the batch isolation level and read-only flag", async () => {
      const sql = neon(connectionString);
      const [settings] = await sql.transaction(
        [
          sql`SELECT current_setting('transaction_isolation') AS iso, current_setting('transaction_read_only') AS ro`,
        ],
        { isolationLevel: "Serializable", readOnly: true },
      );
      expect(settings).toEqual([{ iso: "serializable", ro: "on" }]);
      const write = sql.transaction([sql`INSERT INTO ${sql.unsafe(table)} (id, name) VALUES (9, 'no')`], {
        readOnly: true,
      });
      await expect(write).rejects.toMatchObject({ code: "25006" });
    });

    it("surfaces Postgres errors over HTTP as NeonDbError with the Postgres fields", async () => {
      const sql = neon(connectionString);
      const duplicate = await sql
        .query(`INSERT INTO ${table} (id, name) VALUES ($1, $2)`, [1, "again"])
        .catch((error: unknown) => error);
      expect(duplicate).toBeInstanceOf(NeonDbError);
      expect(duplicate).toMatchObject({
        code: "23505",
        severity: "ERROR",
        constraint: `${table}_pkey`,
        table,
        detail: "Key (id)=(1) already exists.",
      });

      const syntax = await sql.query("SELECT FROM WHERE").catch((error: unknown) => error);
      expect(syntax).toMatchObject({ name: "NeonDbError", code: "42601", position: "13" });

      // The connection that failed must not poison the next request.
      expect(await sql`SELECT 1 AS ok`).toEqual([{ ok: 1 }]);
    });

    it("keeps concurrent HTTP queries and batches apart", async () => {
      const sql = neon(connectionString);
      const singles = Array.from({ length: 16 }, (_, i) =>
        sql.query(`SELECT $1::int * ${i} AS product, '${i}' AS tag`, [i + 1]),
      );
      const batches = Array.from({ length: 4 }, (_, i) =>
        sql.transaction([
          sql`SELECT ${i}::int AS first`,
          sql.query(`SELECT $1::text || '-${i}' AS second`, ["b"]),
        ]),
      );
      expect(await Promise.all(singles)).toEqual(
        Array.from({ length: 16 }, (_, i) => [{ product: (i + 1) * i, tag: String(i) }]),
      );
      expect(await Promise.all(batches)).toEqual(
        Array.from({ length: 4 }, (_, i) => [[{ first: i }], [{ second: `b-${i}` }]]),
      );
    });

    it("answers malformed requests with a JSON error instead of reaching Postgres", async () => {
      const endpoint = relay.clientConfig.fetchEndpoint("ignored", 5432);
      const notJson = await fetch(endpoint, {
        method: "POST",
        headers: { "Neon-Connection-String": connectionString },
        body: "{nope",
      });
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ message: "invalid request body: not JSON" });

      const noConnectionString = await fetch(endpoint, { method: "POST", body: '{"query":"SELECT 1"}' });
      expect(noConnectionString.status).toBe(400);
      expect(await noConnectionString.json()).toMatchObject({
        message: "missing Neon-Connection-String header",
      });

      const tooLarge = await fetch(endpoint, {
        method: "POST",
        headers: { "Neon-Connection-String": connectionString },
        body: JSON.stringify({ query: "SELECT $1", params: ["x".repeat(5 * 1024 * 1024)] }),
      });
      expect(tooLarge.status).toBe(413);
      expect(await tooLarge.json()).toMatchObject({ message: expect.stringContaining("too large") });
    });

    it("runs an interactive transaction over WebSocket with SELECT ... FOR UPDATE serialising writers", async () => {
      const pool = new Pool({ connectionString, max: 4 });
      try {
        // Both connect first: PGlite admits nothing from another socket while a transaction is open.
        const first = await pool.connect();
        const second = await pool.connect();
        await first.query("BEGIN");
        const locked = await first.query(`SELECT balance FROM ${table} WHERE id = $1 FOR UPDATE`, [1]);
        expect(locked.rows).toEqual([{ balance: "100.00" }]);

        let secondSawRow = false;
        const secondTurn = (async () => {
          await second.query("BEGIN");
          const row = await second.query(`SELECT balance FROM ${table} WHERE id = $1 FOR UPDATE`, [1]);
          secondSawRow = true;
          await second.query(`UPDATE ${table} SET balance = balance - 30 WHERE id = $1`, [1]);
          await second.query("COMMIT");
          return row.rows[0]?.balance;
        })();

        await first.query(`UPDATE ${table} SET balance = balance - 30 WHERE id = $1`, [1]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(secondSawRow).toBe(false);
        await first.query("COMMIT");

        expect(await secondTurn).toBe("70.00");
        first.release();
        second.release();
        expect(await rowsOf(`SELECT balance FROM ${table} WHERE id = 1`)).toEqual([{ balance: "40.00" }]);

        const rolledBack = await pool.connect();
        await rolledBack.query("BEGIN");
        await rolledBack.query(`UPDATE ${table} SET balance = 0 WHERE id = 1`);
        await rolledBack.query("ROLLBACK");
        rolledBack.release();
        expect(await rowsOf(`SELECT balance FROM ${table} WHERE id = 1`)).toEqual([{ balance: "40.00" }]);
      } finally {
        await pool.end();
      }
    });

    it("serves several concurrent Pool clients over WebSocket", async () => {
      const pool = new Pool({ connectionString, max: 5 });
      try {
        const transfers = Array.from({ length: 10 }, async (_, i) => {
          const client = await pool.connect();
          try {
            await client.query("BEGIN");
            await client.query(`INSERT INTO ${table} (id, name) VALUES ($1, $2)`, [
              1000 + i,
              `concurrent ${i}`,
            ]);
            const { rows } = await client.query("SELECT $1::int * 2 AS doubled", [i]);
            await client.query("COMMIT");
            return rows[0]?.doubled;
          } finally {
            client.release();
          }
        });
        // Distinct statement texts, so a statement or portal crossing connections shows up as a wrong answer.
        const reads = Array.from({ length: 10 }, (_, i) =>
          pool.query(`SELECT $1::text || '-${i}-' || $2::text AS joined`, [`a${i}`, `b${i}`]),
        );
        expect(await Promise.all(transfers)).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
        expect((await Promise.all(reads)).map((result) => result.rows[0]?.joined)).toEqual(
          Array.from({ length: 10 }, (_, i) => `a${i}-${i}-b${i}`),
        );
        expect(pool.totalCount).toBeGreaterThan(1);
        expect(await rowsOf(`SELECT count(*)::int AS n FROM ${table} WHERE id >= 1000`)).toEqual([{ n: 10 }]);
      } finally {
        await pool.end();
      }
    });

    it("holds 64 concurrent clients, each with its own WebSocket transaction and HTTP query, with no error and no crossed answer", async () => {
      const clients = Array.from({ length: 64 }, async (_, i) => {
        const pool = new Pool({ connectionString, max: 1 });
        try {
          const client = await pool.connect();
          try {
            await client.query("BEGIN");
            await client.query(`INSERT INTO ${table} (id, name) VALUES ($1, $2)`, [5000 + i, `client ${i}`]);
            const { rows } = await client.query(`SELECT name FROM ${table} WHERE id = $1`, [5000 + i]);
            await client.query("COMMIT");
            const [read] = await neon(connectionString).query(`SELECT $1::text || '-${i}' AS echoed`, [
              `c${i}`,
            ]);
            return [rows[0]?.name, read?.echoed];
          } finally {
            client.release();
          }
        } finally {
          await pool.end();
        }
      });
      const answers = await Promise.allSettled(clients);
      expect(answers.filter((answer) => answer.status === "rejected")).toEqual([]);
      expect(answers.map((answer) => (answer.status === "fulfilled" ? answer.value : undefined))).toEqual(
        Array.from({ length: 64 }, (_, i) => [`client ${i}`, `c${i}-${i}`]),
      );
      expect(await rowsOf(`SELECT count(*)::int AS n FROM ${table} WHERE id >= 5000`)).toEqual([{ n: 64 }]);
    }, 60_000);

    it("closes the upstream connection when the WebSocket client goes away", async () => {
      const applicationName = `relay-cleanup-${randomUUID().slice(0, 8)}`;
      // Earlier tests' pools hang up asynchronously; start from a count that has stopped moving.
      const before = await steadyCount(() => target.connectionsNamed(applicationName));
      const client = new Client({ connectionString, application_name: applicationName });
      try {
        await client.connect();
        expect((await client.query("SELECT 'still here' AS answer")).rows).toEqual([
          { answer: "still here" },
        ]);
        expect(await target.connectionsNamed(applicationName)).toBe(before + 1);
      } finally {
        await client.end();
      }
      await eventually(
        async () => (await target.connectionsNamed(applicationName)) === before,
        "the upstream connection to close",
      );
    });
  });
}

describeRelayAgainst("PGlite via PGLiteSocketServer", startPglite);

const realDatabaseUrl = process.env.TEST_DATABASE_URL;
if (!realDatabaseUrl) {
  console.warn("neon-relay: TEST_DATABASE_URL is not set; skipping the real Postgres suite.");
}
describe.skipIf(!realDatabaseUrl)("real Postgres (TEST_DATABASE_URL)", () => {
  describeRelayAgainst("real Postgres", () => startRealPostgres(realDatabaseUrl ?? ""));
});
