/**
 * `npm run bench`: the service's speed in one table, on this machine. The whole app runs in this
 * process (as the tests build it: tests/harness/app.ts) on the PostgreSQL TEST_DATABASE_URL names, or
 * an embedded PGlite, with the local chains, served over loopback HTTP; autocannon loads each
 * operation with BENCH_CONNECTIONS (10) connections for BENCH_SECONDS (5) s, BENCH_ROUNDS (3) times,
 * rounds interleaved, and the table gives min / median / max and each median's ratio to the floor: a
 * route added here only, a key's authentication and one INSERT. Ratios, since the machine is noisy.
 * Order creation is loaded twice: with the signed burn plan, and for an organization without it.
 * Statements and round trips per request are counted at the driver (node-postgres). Then the worker
 * bundle against a bare Hono app with as many routes, and the local settlement: burn to DELIVERED for
 * one order and for BENCH_ORDERS (200) at once across BENCH_ACCOUNTS (16) settlement accounts, with
 * every order advanced by its own job each tick, and the pool's orders a day on paper.
 */
import { and, eq, gte, sql } from "drizzle-orm";
import pg from "pg";
import type { Hex } from "viem";
import { serviceContext } from "../../lib/http/deps";
import { createLogger } from "../../lib/kernel/log";
import { advanceOrder, PRICE_SOURCES } from "../../lib/settlement";
import { priceBook } from "../../schema";
import { createHarness } from "../../tests/harness/app";
import { placeOrder, sendPlan, submitBurn } from "../../tests/harness/burns";
import { createOrder, createQuote, enableBurnPlan, orderRow } from "../../tests/harness/settlement";
import { createTenant } from "../../tests/harness/tenants";
import { localSettlementPoolVars } from "../local-defaults";
import { type Goal, goalRows, recordGoal } from "./goals";
import { type Endpoint, type LoadFigures, load } from "./http-load";
import { onPaper } from "./on-paper";
import { profilerSession } from "./profile";
import { serveFetch } from "./serve";
import { workerFigures } from "./worker-size";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200);
/** Settlement accounts in the pool the settlement part spreads its orders across (dev/local-defaults.ts). */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 16);
const LIFI_PER_MINUTE = Number(process.env.BENCH_LIFI_PER_MINUTE ?? 6000);
const ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
/** BENCH_PARTS=http,book,worker,settlement (all by default); BENCH_ONLY=quote,read loads only the operations named so. */
const PARTS = new Set((process.env.BENCH_PARTS ?? "http,book,worker,settlement").split(","));
const ONLY = process.env.BENCH_ONLY?.split(",");

// Every message node-postgres sends for a query is one round trip (BEGIN and COMMIT included).
let roundTrips = 0;
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  roundTrips += 1;
  return (sendQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const say = (line: string) => process.stderr.write(`${line}\n`);
const databaseUrl = process.env.TEST_DATABASE_URL;
say(`bench: ${databaseUrl ? "PostgreSQL at TEST_DATABASE_URL" : "embedded PGlite"}, local chains`);
const h = await createHarness({
  chains: true,
  ...(databaseUrl ? { databaseUrl } : {}),
  env: {
    LOG_LEVEL: "error",
    RATE_LIMIT_PER_KEY_PER_MINUTE: "100000000",
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: "100000000",
    RATE_LIMIT_PER_IP_PER_MINUTE: "100000000",
    ...localSettlementPoolVars(ACCOUNTS),
    // The vendors' budgets at what they allow: Circle's 35 requests a second, and a LI.FI key whose
    // plan allows BENCH_LIFI_PER_MINUTE (LI.FI's default key: 100; the status of each route is polled).
    IRIS_CALLS_PER_SECOND: "35",
    // The settlement part advances 200 orders at once in this one process, with the local vendors
    // and chains on the same two cores: a vendor's answer waits behind the others' work, so a 5 s
    // deadline there measures this machine, not the vendor (in production each order's step is a
    // job of its own). Its figures count the calls that missed it all the same.
    PROVIDER_TIMEOUT_MS: process.env.BENCH_PROVIDER_TIMEOUT_MS ?? "30000",
    LIFI_CALLS_PER_MINUTE: String(LIFI_PER_MINUTE),
  },
});

// The floor: what every partner route pays (the key's authentication) and one INSERT, nothing else.
await h.database.db.execute(sql`create table bench_floor (id text primary key)`);
let floorRows = 0;
h.app.post("/api/integrations/bench/floor", async (c) => {
  floorRows += 1;
  await h.database.db.execute(sql`insert into bench_floor (id) values (${`floor-${floorRows}`})`);
  return c.json({ ok: true }, 201);
});

const tenant = await createTenant(h, "Bench");
await enableBurnPlan(h, tenant);
// An organization without the signed burn plan (the spec's pending_burn_plan): the same order creation
// without the plan's EIP-712 digest and signature, so one run shows what the signature costs.
const unsigned = await createTenant(h, "Bench, no burn plan");
const burned = await placeOrder(h, tenant);
const burnHash = await sendPlan(h, burned);
if ((await submitBurn(h, tenant, burned.orderId, burnHash)).status !== 200)
  throw new Error("burn report failed");
const server = await serveFetch((request) => h.app.fetch(request));

/** Quotes for the order-create loads, one per order (made in-process, ahead of the run), per organization. */
const quotes: string[] = [];
const unsignedQuotes: string[] = [];
async function stockQuotes(count: number, of = tenant, into = quotes) {
  for (let made = 0; made < count; made += 25) {
    const batch = await Promise.all(Array.from({ length: 25 }, () => createQuote(h, of)));
    into.push(...batch.map((quote) => quote.quoteId));
  }
}
let orderKeys = 0;
/** An order creation's request: a fresh idempotency key and an unused quote of `stock`. */
const orderRequest = (stock: string[]) => () => {
  orderKeys += 1;
  return {
    body: { quoteId: stock.pop() ?? "quote-stock-exhausted" },
    headers: { "idempotency-key": `bench-${orderKeys}` },
  };
};
/**
 * An operation the bench loads; `goal` names issue 39's ratio goal it is measured against, `orders`
 * the quotes an order-create load spends and the organization that makes them.
 */
type BenchEndpoint = Endpoint & { goal?: Goal; orders?: { stock: string[]; of: typeof tenant } };

const ORDERS_PATH = "/api/integrations/settlements/orders";
const endpoints: BenchEndpoint[] = [
  { name: "floor (key + one INSERT)", method: "POST", path: "/api/integrations/bench/floor", body: {} },
  {
    name: "settlement quote create",
    method: "POST",
    path: "/api/integrations/settlements/quotes",
    body: { sendAmountUsdc: "100", sourceAddress: ADDRESS, destinationAddress: ADDRESS },
    goal: "quoteCreate",
  },
  {
    name: "settlement order create",
    method: "POST",
    path: ORDERS_PATH,
    perRequest: orderRequest(quotes),
    goal: "orderCreate",
    orders: { stock: quotes, of: tenant },
  },
  {
    name: "settlement order create, no burn plan",
    method: "POST",
    path: ORDERS_PATH,
    apiKey: unsigned.apiKey,
    perRequest: orderRequest(unsignedQuotes),
    orders: { stock: unsignedQuotes, of: unsigned },
  },
  { name: "settlement order read", method: "GET", path: `${ORDERS_PATH}/${burned.orderId}` },
  { name: "settlement order list", method: "GET", path: ORDERS_PATH, goal: "orderList" },
  {
    name: "burn report (replayed)",
    method: "POST",
    path: `${ORDERS_PATH}/${burned.orderId}/burn`,
    body: { txHash: burnHash },
  },
  {
    name: "swaps list",
    method: "GET",
    path: `/api/integrations/swaps?integration_id=${tenant.integrationId}&since=2026-01-01T00:00:00Z`,
  },
  { name: "webhook events list", method: "GET", path: "/api/integrations/webhooks/events" },
];

const chosen = endpoints.filter(
  (endpoint, i) => i === 0 || !ONLY || ONLY.some((part) => endpoint.name.includes(part)),
);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? Number.NaN;
const figures = new Map<string, LoadFigures[]>();
// The list's goal is a page of 100: made here, so the list loads a full page whatever ran before it.
if (chosen.some((endpoint) => endpoint.path === ORDERS_PATH && endpoint.method === "GET")) {
  await stockQuotes(100);
  for (const quoteId of quotes.splice(0, 100)) {
    const created = await createOrder(h, tenant, quoteId, `bench-page-${quoteId}`);
    if (created.status !== 201)
      throw new Error(`an order of the list's page: ${created.status} ${await created.text()}`);
  }
}
// BENCH_PROFILE=name: a CPU profile of each HTTP load (the app and the load generator, not the stocking
// of quotes between loads), written to name.<operation>.<round>.cpuprofile for Chrome's DevTools.
const profiler = process.env.BENCH_PROFILE ? await profilerSession() : undefined;
for (let round = 1; PARTS.has("http") && round <= ROUNDS; round++) {
  for (const endpoint of chosen) {
    // Enough quotes for the run at twice the fastest round's pace, and at least 1,000 a second (a
    // used quote would answer 409, a missing one 404: failures, which the table counts).
    const { orders } = endpoint;
    if (orders) {
      const pace = Math.max(1_000, ...(figures.get(endpoint.name) ?? []).map((f) => f.reqPerSec));
      orders.stock.length = 0;
      await stockQuotes(Math.ceil(pace * SECONDS * 2), orders.of, orders.stock);
    }
    say(`round ${round}/${ROUNDS}: ${endpoint.name}`);
    await profiler?.start();
    const result = await load(server.url, endpoint.apiKey ?? tenant.apiKey, endpoint, {
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    await profiler?.stop(
      `${process.env.BENCH_PROFILE}.${endpoint.name.replace(/\W+/g, "-")}.${round}.cpuprofile`,
    );
    figures.set(endpoint.name, [...(figures.get(endpoint.name) ?? []), result]);
    h.queries.length = 0;
  }
}

/** SQL statements drizzle logged; a transaction's BEGIN and COMMIT are round trips, not statements. */
const statements = () => h.queries.filter((query) => !/^(begin|commit|rollback)$/i.test(query)).length;

/** Statements and round trips of one request, once the key's last-use stamp is fresh. */
async function perRequest(endpoint: Endpoint): Promise<{ statements: number; roundTrips: number }> {
  const send = async () => {
    const own = endpoint.perRequest?.() ?? {};
    const body = own.body ?? endpoint.body;
    await fetch(`${server.url}${own.path ?? endpoint.path}`, {
      method: endpoint.method,
      headers: {
        authorization: `Bearer ${endpoint.apiKey ?? tenant.apiKey}`,
        "content-type": "application/json",
        ...own.headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  };
  await send();
  h.queries.length = 0;
  roundTrips = 0;
  await send();
  return { statements: statements(), roundTrips };
}
await stockQuotes(25);
await stockQuotes(25, unsigned, unsignedQuotes);
const counts = new Map<string, { statements: number; roundTrips: number }>();
for (const endpoint of chosen) counts.set(endpoint.name, await perRequest(endpoint));
// A fresh burn report cannot be loaded (each needs its own burn): one, counted alone.
const fresh = await placeOrder(h, tenant);
const freshHash = await sendPlan(h, fresh);
h.queries.length = 0;
roundTrips = 0;
if ((await submitBurn(h, tenant, fresh.orderId, freshHash)).status !== 200)
  throw new Error("fresh burn report failed");
const freshBurn = { statements: statements(), roundTrips };

const spread = (values: number[], digits = 0) =>
  `${sorted(values)
    .filter((_, i, all) => i === 0 || i === Math.floor(all.length / 2) || i === all.length - 1)
    .map((value) => value.toFixed(digits))
    .join(" / ")}`;
const floor = median((figures.get(endpoints[0]?.name ?? "") ?? []).map((f) => f.reqPerSec));

const lines: string[] = [];
lines.push(
  `HTTP: ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} interleaved rounds (min / median / max); ${databaseUrl ? "PostgreSQL" : "PGlite"}`,
);
lines.push("");
lines.push(
  "| operation | req/s | × floor | p50 ms | p99 ms | answer KB | statements | round trips | failed |",
);
lines.push("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const endpoint of PARTS.has("http") ? chosen : []) {
  const runs = figures.get(endpoint.name) ?? [];
  const rate = runs.map((f) => f.reqPerSec);
  const count = counts.get(endpoint.name);
  // The goal is read as the table prints it: 0.695 is 0.70, and so met.
  const ratio = (median(rate) / floor).toFixed(2);
  if (endpoint.goal) recordGoal(endpoint.goal, Number(ratio));
  lines.push(
    `| ${endpoint.name} | ${spread(rate)} | ${ratio} | ${spread(runs.map((f) => f.p50))} | ${spread(runs.map((f) => f.p99))} | ${(median(runs.map((f) => f.answerBytes)) / 1000).toFixed(1)} | ${count?.statements ?? "?"} | ${databaseUrl ? (count?.roundTrips ?? "?") : "n/a"} | ${runs.reduce((sum, f) => sum + f.failures, 0)} |`,
  );
}
lines.push(
  `| burn report (fresh, one request, not loaded) | | | | | | ${freshBurn.statements} | ${databaseUrl ? freshBurn.roundTrips : "n/a"} | |`,
);
await server.close();

/**
 * 1,000 quotes in one minute of the service clock (ten at a time, 600 ms apart), as partners quoting
 * on every keystroke would send them: how many quotes the local aggregator was asked for, against
 * the route entries' refreshes the book allows (one per entry per maximum age).
 */
async function bookRows(): Promise<string[]> {
  say("price book: 1,000 quotes in a minute");
  const aggregator = h.vendors?.aggregator;
  if (!aggregator) throw new Error("the bench needs the local aggregator");
  h.clock.advance(PRICE_SOURCES.circle_fees.maxAgeMs + 1);
  const before = aggregator.quotesAsked();
  const started = h.clock.now();
  for (let batch = 0; batch < 100; batch++) {
    await Promise.all(Array.from({ length: 10 }, () => createQuote(h, tenant)));
    h.clock.advance(600);
  }
  const calls = aggregator.quotesAsked() - before;
  // The route entries the minute's quotes read (each marked demanded by its first refresh).
  const entries = (
    await h.database.db
      .select()
      .from(priceBook)
      .where(and(eq(priceBook.source, "route"), gte(priceBook.demandedAt, started)))
  ).length;
  const allowed = Math.ceil(60_000 / PRICE_SOURCES.route.maxAgeMs) * entries;
  recordGoal("aggregatorCalls", calls, allowed);
  return [
    "",
    `Price book: 1,000 quotes of 100 USDC in one minute (10 at a time, 600 ms apart on the service clock): ${calls} aggregator calls, against ${allowed} route refreshes allowed (${entries} grid entries × one per ${PRICE_SOURCES.route.maxAgeMs / 1000} s)`,
  ];
}
if (PARTS.has("book")) lines.push(...(await bookRows()));

/** The worker bundle's rows: its size and import time against a bare Hono app with as many routes. */
async function bundleRows(): Promise<string[]> {
  say("worker bundle");
  // Operations, not middleware (registered as ALL).
  const routes = new Set(h.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`))
    .size;
  const worker = await workerFigures(routes, 5);
  recordGoal("workerGzip", Math.round(worker.worker.gzipKiB));
  recordGoal("workerImport", Number(median(worker.worker.importMs).toFixed(1)));
  const rows = [
    "",
    `Worker bundle (wrangler's build) against a bare Hono app with the same ${routes} routes; import in a fresh Node process, 5 runs (min / median / max)`,
    "",
    "| bundle | KiB | gzip KiB | import ms |",
    "| --- | --- | --- | --- |",
  ];
  for (const [name, bundle] of [
    ["worker (the API worker)", worker.worker],
    ["pages worker (dashboard, miniapp)", worker.pages],
    ["bare Hono", worker.bare],
  ] as const) {
    rows.push(
      `| ${name} | ${bundle.rawKiB.toFixed(0)} | ${bundle.gzipKiB.toFixed(0)} | ${spread(bundle.importMs, 1)} |`,
    );
  }
  return rows;
}
if (PARTS.has("worker")) lines.push(...(await bundleRows()));

/** Seconds of the service's own work from burn to DELIVERED for `count` orders burned at once. */
async function settle(count: number): Promise<{ seconds: number; ticks: number; missed: number }> {
  const placed = [];
  for (let i = 0; i < count; i++) placed.push(await placeOrder(h, tenant));
  const hashes = await Promise.all(placed.map((order) => sendPlan(h, order)));
  const started = performance.now();
  for (const [i, order] of placed.entries()) {
    if ((await submitBurn(h, tenant, order.orderId, hashes[i] as Hex)).status !== 200)
      throw new Error("burn");
  }
  h.jobs.loseAll();
  // Warnings only, to count the legs whose provider missed its deadline (lib/kernel/deadline.ts).
  let missed = 0;
  const ctx = serviceContext(
    h.deps,
    h.database.db,
    createLogger("warn", {}, (line) => {
      if (line.includes("did not answer within")) missed += 1;
    }),
  );
  let open = placed.map((order) => order.orderId);
  let tick = 0;
  for (; open.length > 0 && tick < 2_000; tick++) {
    await Promise.all(open.map((id) => advanceOrder(ctx, id)));
    h.clock.advance(1_000);
    const statuses = await Promise.all(
      open.map(async (id) => [id, (await orderRow(h, id))?.status] as const),
    );
    open = statuses.filter(([, status]) => status !== "DELIVERED").map(([id]) => id);
    if (process.env.BENCH_TRACE) {
      const counts = new Map<string, number>();
      for (const [, status] of statuses) counts.set(status ?? "?", (counts.get(status ?? "?") ?? 0) + 1);
      say(`tick ${tick}: ${[...counts].map(([status, n]) => `${status} ${n}`).join(", ")}`);
    }
  }
  if (open.length > 0) throw new Error(`${open.length} orders not delivered`);
  return { seconds: (performance.now() - started) / 1000, ticks: tick, missed };
}
if (PARTS.has("settlement")) {
  say("settlement: one order");
  const one = await settle(1);
  say(`settlement: ${ORDERS} orders`);
  const many = await settle(ORDERS);
  lines.push("");
  lines.push(
    `Local settlement, burn report to DELIVERED, ${ACCOUNTS} settlement accounts, budgets of 35 Iris calls a second and ${LIFI_PER_MINUTE} LI.FI calls a minute, providers' deadline ${h.deps.config.PROVIDER_TIMEOUT_MS / 1000} s: the service's own work (the sandbox's delays pass on the test clock, 1 s a tick)`,
  );
  lines.push("");
  lines.push(
    "| orders at once | ticks (sandbox seconds) | × one order | service work, s | × one order | legs past a provider's deadline |",
  );
  lines.push("| --- | --- | --- | --- | --- | --- |");
  lines.push(`| 1 | ${one.ticks} | 1.00 | ${one.seconds.toFixed(1)} | 1.00 | ${one.missed} |`);
  lines.push(
    `| ${ORDERS} | ${many.ticks} | ${(many.ticks / one.ticks).toFixed(2)} | ${many.seconds.toFixed(1)} | ${(many.seconds / one.seconds).toFixed(2)} | ${many.missed} |`,
  );
  lines.push(...onPaper(h.deps.config, ACCOUNTS));
  recordGoal("settlementTicks", Number((many.ticks / one.ticks).toFixed(2)));
}

lines.push(...goalRows());

await h.close();
console.log(lines.join("\n"));
