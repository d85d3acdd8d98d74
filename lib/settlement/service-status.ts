import { and, eq, gte, inArray, notInArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { settlementEvents, settlementOrders } from "../../schema";
import type { SettlementServices } from "./context";
import { FINAL_STATUSES } from "./lifecycle";
import { vendorHealth } from "./operator-health";
import type { TimelineKind } from "./timeline";

const WINDOW_HOURS = 24;
/** The most delivered orders one look measures (the newest); the page says how many it read. */
const MAX_ORDERS = 10_000;

/**
 * The legs the status page times, each from the entry that starts it to the first that ends it
 * (docs/platform.md, "Status page"). One table: a leg is named once, with its ends.
 */
const LEGS = {
  attestation: { from: ["BURN_VERIFIED"], to: ["ATTESTED"] },
  mint: { from: ["ATTESTED"], to: ["FORWARDED_MINT", "MINT_RELAYED"] },
  route: { from: ["ROUTE_SENT"], to: ["ROUTE_COMPLETED"] },
  delivery: { from: ["ROUTE_COMPLETED"], to: ["DELIVERED"] },
} as const satisfies Record<string, { from: readonly TimelineKind[]; to: readonly TimelineKind[] }>;

type Leg = keyof typeof LEGS;
const STARTS: readonly TimelineKind[] = ["BURN_VERIFIED", "DEPOSIT_VERIFIED"];
const STOPS: readonly TimelineKind[] = ["STUCK", "HELD"];

interface Timing {
  count: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
}

export interface ServiceStatus {
  generatedAt: string;
  windowHours: number;
  delivered: number;
  /** Of those, the share never STUCK (nor held) on the way, 0 to 1; null when none was delivered. */
  deliveredWithoutStuck: number | null;
  /** From the burn (or deposit) to DELIVERED, per source chain. */
  bySourceChain: Array<Timing & { chainId: number; name: string }>;
  byLeg: Array<Timing & { leg: Leg }>;
  /** Orders STUCK now (not final): the open incidents. */
  openIncidents: number;
  /** Each polled vendor as the operator sees it: up (its last call succeeded), degraded, or unknown. */
  vendors: Array<{ vendor: string; status: "up" | "degraded" | "unknown"; lastSuccessAt: string | null }>;
}

/**
 * The public status page's figures (`GET /status`), measured from the service's own timelines: the
 * orders DELIVERED in the last 24 hours, their times from the burn to DELIVERED per source chain
 * and per leg (p50 and p95, nearest rank), the share never stuck; the open incidents; each vendor's
 * health. No address, amount, order id or vendor message: only counts, times and names.
 */
export async function serviceStatus(ctx: SettlementServices): Promise<ServiceStatus> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - WINDOW_HOURS * 60 * 60_000);
  const deliveredIds = ctx.db
    .select({ id: settlementEvents.orderId })
    .from(settlementEvents)
    .where(and(eq(settlementEvents.kind, "DELIVERED"), gte(settlementEvents.at, since)))
    .limit(MAX_ORDERS);
  const [rows, stuck, vendors] = await Promise.all([
    ctx.db
      .select({
        orderId: settlementEvents.orderId,
        kind: settlementEvents.kind,
        at: settlementEvents.at,
        execution: settlementOrders.execution,
      })
      .from(settlementEvents)
      .innerJoin(settlementOrders, eq(settlementOrders.id, settlementEvents.orderId))
      .where(inArray(settlementEvents.orderId, deliveredIds)),
    ctx.db
      .select({ id: settlementOrders.id })
      .from(settlementOrders)
      .where(
        and(eq(settlementOrders.health, "STUCK"), notInArray(settlementOrders.status, [...FINAL_STATUSES])),
      ),
    vendorHealth(ctx),
  ]);

  const orders = new Map<
    string,
    { chainId: number; chain: string; events: Array<{ kind: string; at: Date }> }
  >();
  for (const row of rows) {
    const order = orders.get(row.orderId) ?? {
      chainId: row.execution.chainId,
      chain: row.execution.chain,
      events: [],
    };
    order.events.push({ kind: row.kind, at: row.at });
    orders.set(row.orderId, order);
  }
  const totals = new Map<number, { name: string; seconds: number[] }>();
  const legs = new Map<Leg, number[]>((Object.keys(LEGS) as Leg[]).map((leg) => [leg, []]));
  let clean = 0;
  for (const order of orders.values()) {
    const events = order.events.sort((a, b) => a.at.getTime() - b.at.getTime());
    const first = (kinds: readonly string[], after = 0) =>
      events.find((event) => kinds.includes(event.kind) && event.at.getTime() >= after);
    const start = first(STARTS);
    const end = first(["DELIVERED"]);
    if (start && end) {
      const total = totals.get(order.chainId) ?? { name: order.chain, seconds: [] };
      total.seconds.push((end.at.getTime() - start.at.getTime()) / 1000);
      totals.set(order.chainId, total);
    }
    for (const [leg, { from, to }] of Object.entries(LEGS) as Array<[Leg, (typeof LEGS)[Leg]]>) {
      const legStart = first(from);
      const legEnd = legStart ? first(to, legStart.at.getTime()) : undefined;
      if (legStart && legEnd) legs.get(leg)?.push((legEnd.at.getTime() - legStart.at.getTime()) / 1000);
    }
    if (!events.some((event) => STOPS.includes(event.kind as TimelineKind))) clean += 1;
  }
  const nowMs = now.getTime();
  return {
    generatedAt: now.toISOString(),
    windowHours: WINDOW_HOURS,
    delivered: orders.size,
    deliveredWithoutStuck: orders.size === 0 ? null : Math.round((clean / orders.size) * 1000) / 1000,
    bySourceChain: [...totals.entries()]
      .sort(([a], [b]) => a - b)
      .map(([chainId, total]) => ({ chainId, name: total.name, ...timing(total.seconds) })),
    byLeg: [...legs.entries()].map(([leg, seconds]) => ({ leg, ...timing(seconds) })),
    openIncidents: stuck.length,
    vendors: vendors.map((vendor) => ({
      vendor: vendor.vendor,
      status: vendorStatus(vendor, nowMs),
      lastSuccessAt: vendor.lastSuccessAt,
    })),
  };
}

/** p50 and p95 by nearest rank, in whole seconds; null without samples. */
function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => {
    const value = sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
    return value === undefined ? null : Math.round(value);
  };
  return { count: sorted.length, p50Seconds: rank(0.5), p95Seconds: rank(0.95) };
}

function vendorStatus(
  vendor: { lastSuccessAt: string | null; lastErrorAt: string | null; blockedUntil: string | null },
  now: number,
): "up" | "degraded" | "unknown" {
  if (vendor.blockedUntil && Date.parse(vendor.blockedUntil) > now) return "degraded";
  if (!vendor.lastSuccessAt) return vendor.lastErrorAt ? "degraded" : "unknown";
  if (vendor.lastErrorAt && Date.parse(vendor.lastErrorAt) > Date.parse(vendor.lastSuccessAt))
    return "degraded";
  return "up";
}

/**
 * The median seconds from each start a delivery after it is timed from (the attestation, for a
 * burn; the verified deposit, for USDC already on the intermediate chain) to DELIVERED, over the
 * last 24 hours' deliveries: what the chains list gives as the typical time after Circle's part.
 * A start with no delivery in the window is absent. One statement.
 */
export async function measuredSecondsToDelivered(
  ctx: Pick<SettlementServices, "db" | "clock">,
): Promise<Partial<Record<"ATTESTED" | "DEPOSIT_VERIFIED", number>>> {
  const since = new Date(ctx.clock.now().getTime() - WINDOW_HOURS * 60 * 60_000);
  // The day's deliveries (settlement_events_at_idx), each joined to its own order's starts
  // (settlement_events_order_id_idx): never the whole table. An order attested again counts each time.
  const started = alias(settlementEvents, "started");
  const rows = await ctx.db
    .select({
      kind: started.kind,
      p50: sql<string>`percentile_disc(0.5) within group (order by extract(epoch from ${settlementEvents.at} - ${started.at}))`,
    })
    .from(settlementEvents)
    .innerJoin(
      started,
      and(
        eq(started.orderId, settlementEvents.orderId),
        inArray(started.kind, ["ATTESTED", "DEPOSIT_VERIFIED"]),
      ),
    )
    .where(and(eq(settlementEvents.kind, "DELIVERED"), gte(settlementEvents.at, since)))
    .groupBy(started.kind);
  const measured: Partial<Record<"ATTESTED" | "DEPOSIT_VERIFIED", number>> = {};
  for (const row of rows) {
    if (row.kind === "ATTESTED" || row.kind === "DEPOSIT_VERIFIED")
      measured[row.kind] = Math.round(Number(row.p50));
  }
  return measured;
}
