import { and, eq, inArray, lt, notInArray } from "drizzle-orm";
import { settlementOrders } from "../../../schema";
import type { ServiceContext } from "../../kernel/context";
import type { SweepHook } from "../../kernel/sweep";
import { LEG_STATUSES, legDeadlines } from "../legs/deadlines";
import { FINAL_STATUSES, type OrderStatus } from "../lifecycle";
import { scheduleAdvance } from "./advance";
import { loadOrderState, markStuck } from "./state";

/** At most this many orders are touched by one sweep, so a sweep stays short. */
const SWEEP_BATCH = 100;
const IN_FLIGHT: OrderStatus[] = ["BURNED", "ATTESTED", "MINTED", "ROUTING", "ROUTED", "RETURNING"];

/** A lost job message delays an order, never strands it: in-flight orders not looked at lately are rescheduled. */
export const recoverInFlightOrders: SweepHook = {
  name: "recover-in-flight-settlements",
  async run(ctx) {
    const quiet = new Date(ctx.clock.now().getTime() - 3 * ctx.config.SETTLEMENT_POLL_SECONDS * 1000);
    const orders = await ctx.db
      .select({ id: settlementOrders.id })
      .from(settlementOrders)
      .where(and(inArray(settlementOrders.status, IN_FLIGHT), lt(settlementOrders.updatedAt, quiet)))
      .limit(SWEEP_BATCH);
    for (const order of orders) await scheduleAdvance(ctx, order.id, 0);
    return orders.length;
  },
};

/** An order that outlived its leg's deadline is STUCK (and keeps being observed). */
export const markOverdueOrders: SweepHook = {
  name: "mark-overdue-settlements",
  async run(ctx) {
    const deadlines = legDeadlines(ctx.config);
    const now = ctx.clock.now().getTime();
    let marked = 0;
    for (const status of LEG_STATUSES) {
      const seconds = deadlines[status];
      const overdue = await ctx.db
        .select({ id: settlementOrders.id })
        .from(settlementOrders)
        .where(
          and(
            eq(settlementOrders.status, status),
            eq(settlementOrders.health, "HEALTHY"),
            lt(settlementOrders.updatedAt, new Date(now - seconds * 1000)),
          ),
        )
        .limit(SWEEP_BATCH);
      for (const { id } of overdue) {
        const state = await loadOrderState(ctx, id);
        if (!state) continue;
        await markStuck(ctx, state, `${status} for more than ${seconds} s`);
        marked += 1;
      }
    }
    return marked;
  },
};

/** Used by the admin API: the orders an operator should look at. */
export async function stuckOrders(ctx: ServiceContext) {
  return ctx.db
    .select()
    .from(settlementOrders)
    .where(
      and(eq(settlementOrders.health, "STUCK"), notInArray(settlementOrders.status, [...FINAL_STATUSES])),
    )
    .orderBy(settlementOrders.updatedAt)
    .limit(500);
}
