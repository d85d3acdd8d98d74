/**
 * How many concurrent requests the local database path holds: PGlite behind pglite-socket and the
 * Neon relay, driven by the Neon serverless driver as the worker drives it (per request, a Pool of
 * at most 4 connections, a transaction and a one-shot query, then the Pool closed). Prints, per
 * concurrency, the requests made, how many failed, and latency percentiles.
 *
 *   npm run bench:relay            (REQUESTS=500 CONCURRENCY=16,32,64 to change the run)
 */
import { PGlite } from "@electric-sql/pglite";
import { neon, neonConfig, Pool } from "@neondatabase/serverless";
import ws from "ws";
import { startNeonRelay } from "../neon-relay";
import { servePglite } from "../pglite-server";

const requests = Number(process.env.REQUESTS ?? 500);
const levels = (process.env.CONCURRENCY ?? "16,32,64").split(",").map(Number);

const db = await PGlite.create();
const server = await servePglite(db);
const relay = await startNeonRelay({
  upstream: { host: "127.0.0.1", port: server.port, user: "postgres" },
  serializeUpstreamSessions: true,
});
Object.assign(neonConfig, relay.clientConfig);
if (typeof globalThis.WebSocket === "undefined") neonConfig.webSocketConstructor = ws;
const url = "postgresql://postgres:unused@db.local.invalid:6543/postgres";
await neon(url).query("CREATE TABLE bench (id serial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())");

async function oneRequest(): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 4 });
  try {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("INSERT INTO bench DEFAULT VALUES");
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    await pool.query("SELECT count(*) FROM bench");
  } finally {
    await pool.end();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

console.log("concurrency  requests  failed  p50 ms  p95 ms  max ms  wall s");
for (const concurrency of levels) {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        const at = performance.now();
        await oneRequest().catch(() => {
          failed += 1;
        });
        latencies.push(performance.now() - at);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    [
      String(concurrency).padStart(11),
      String(latencies.length).padStart(9),
      String(failed).padStart(7),
      percentile(latencies, 50).toFixed(1).padStart(7),
      percentile(latencies, 95).toFixed(1).padStart(7),
      (latencies.at(-1) ?? 0).toFixed(1).padStart(7),
      wall.toFixed(2).padStart(7),
    ].join(" "),
  );
}
await relay.close();
await server.stop();
await db.close();
