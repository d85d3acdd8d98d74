import { and, asc, eq, notInArray } from "drizzle-orm";
import {
  settlementEvents,
  settlementOrders,
  settlementQuotes,
  settlementTransactions,
} from "../../../schema";
import type { ServiceContext } from "../../kernel/context";
import type { Database } from "../../kernel/db/database";
import { newId } from "../../kernel/ids";
import type { SettlementQuote } from "../create-quote";
import type { FundsStatus, OrderStatus } from "../lifecycle";
import type { SettlementEvent, SettlementOrder } from "../views/order";
import { recordOrderEvents, statusEvent } from "./events";

export interface OrderState {
  order: SettlementOrder;
  quote: SettlementQuote;
  events: SettlementEvent[];
}

/** An order with its quote and timeline, for the progression job (no tenant: the job is internal). */
export async function loadOrderState(ctx: ServiceContext, orderId: string): Promise<OrderState | undefined> {
  const rows = await ctx.db
    .select({ order: settlementOrders, quote: settlementQuotes, event: settlementEvents })
    .from(settlementOrders)
    .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
    .leftJoin(settlementEvents, eq(settlementEvents.orderId, settlementOrders.id))
    .where(eq(settlementOrders.id, orderId))
    .orderBy(asc(settlementEvents.at), asc(settlementEvents.id));
  const [first] = rows;
  if (!first) return undefined;
  return {
    order: first.order,
    quote: first.quote,
    events: rows.flatMap((row) => (row.event ? [row.event] : [])),
  };
}

/** The detail of the latest event of a kind: where a later leg finds an earlier leg's figures. */
export function detailOf(state: OrderState, kind: string): Record<string, unknown> | undefined {
  return state.events.filter((event) => event.kind === kind).at(-1)?.detail ?? undefined;
}

export interface Move {
  status: OrderStatus;
  fundsStatus: FundsStatus;
  kind: string;
  chainId?: number;
  txHash?: string;
  detail?: Record<string, unknown>;
}

/**
 * Moves an order one step, only from the state it was read in (its version, which every move
 * raises: a status pair can come back, as a refunded route brings an order back to MINTED, and a
 * job that read the order before must not move it again): two jobs racing on one order make one
 * move. The move and its timeline entry are one transaction. A move always makes the order HEALTHY
 * again.
 */
export async function moveOrder(
  ctx: ServiceContext,
  state: OrderState,
  move: Move,
  /** What else the move does, in its transaction and only if the move is made. */
  within?: (tx: Database) => Promise<void>,
): Promise<boolean> {
  const now = ctx.clock.now();
  const moved = await ctx.db.transaction(async (tx) => {
    // Its health as of this transaction (a concurrent markStuck may have changed what `state` says).
    const [current] = await tx
      .select({ health: settlementOrders.health })
      .from(settlementOrders)
      .where(eq(settlementOrders.id, state.order.id))
      .for("update");
    const [moved] = await tx
      .update(settlementOrders)
      .set({
        status: move.status,
        fundsStatus: move.fundsStatus,
        health: "HEALTHY",
        version: state.order.version + 1,
        updatedAt: now,
      })
      .where(
        and(
          eq(settlementOrders.id, state.order.id),
          eq(settlementOrders.version, state.order.version),
          eq(settlementOrders.status, state.order.status),
          eq(settlementOrders.fundsStatus, state.order.fundsStatus),
        ),
      )
      .returning({ id: settlementOrders.id });
    if (!moved) return false;
    await within?.(tx as unknown as Database);
    await tx.insert(settlementEvents).values({
      id: newId("evt", ctx.clock),
      orderId: state.order.id,
      kind: move.kind,
      status: move.status,
      fundsStatus: move.fundsStatus,
      chainId: move.chainId === undefined ? null : String(move.chainId),
      // In lower case whoever reported it (Circle's and the aggregator's hashes come as they send them),
      // so a lookup by hash finds it.
      txHash: move.txHash?.toLowerCase() ?? null,
      detail: move.detail ?? null,
      at: now,
    });
    await recordOrderEvents(ctx, tx, state.order.id, [
      current?.health === "STUCK" ? "settlement.order.recovered" : undefined,
      statusEvent(state.order.status as OrderStatus, move.status),
    ]);
    return true;
  });
  return moved;
}

/** Marks an order STUCK (once per episode), with why; it keeps being observed. */
export async function markStuck(ctx: ServiceContext, state: OrderState, reason: string): Promise<void> {
  if (state.order.health === "STUCK") return;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [marked] = await tx
      .update(settlementOrders)
      .set({ health: "STUCK", updatedAt: now })
      .where(and(eq(settlementOrders.id, state.order.id), eq(settlementOrders.health, "HEALTHY")))
      .returning({ id: settlementOrders.id });
    if (!marked) return;
    await tx.insert(settlementEvents).values({
      id: newId("evt", ctx.clock),
      orderId: state.order.id,
      kind: "STUCK",
      status: state.order.status,
      fundsStatus: state.order.fundsStatus,
      detail: { reason },
      at: now,
    });
    await recordOrderEvents(ctx, tx, state.order.id, ["settlement.order.stuck"]);
  });
  ctx.log.warn("settlement order stuck", { orderId: state.order.id, status: state.order.status, reason });
}

/**
 * The hash of the order's live payment for a purpose, if it has one: one that is going out or went
 * out and did not revert. A replaced, dropped, orphaned or reverted version moved nothing (and a
 * refunded or set-aside payment is renamed), so it is not counted. Reads through `db`, which may be
 * the transaction a payment is recorded in.
 */
export async function recordedHash(
  db: Database,
  orderId: string,
  purpose: string,
): Promise<`0x${string}` | undefined> {
  const [row] = await db
    .select({ hash: settlementTransactions.hash })
    .from(settlementTransactions)
    .where(
      and(
        eq(settlementTransactions.orderId, orderId),
        eq(settlementTransactions.purpose, purpose),
        notInArray(settlementTransactions.status, ["replaced", "dropped", "orphaned", "reverted"]),
      ),
    );
  return row?.hash as `0x${string}` | undefined;
}

/** Says on the order's timeline why it waits (a provider's reason code), once per kind and reason. */
export async function noteOnce(
  ctx: ServiceContext,
  state: OrderState,
  kind: string,
  reason: string,
): Promise<void> {
  if (detailOf(state, kind)?.reason === reason) return;
  await noteOnTimeline(ctx, state.order.id, kind, { reason });
}

/**
 * Adds an entry to an order's timeline without moving it (the order's current status and funds
 * status): what happened to one of its payments that a partner or operator should see.
 */
export async function noteOnTimeline(
  ctx: ServiceContext,
  orderId: string,
  kind: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const [order] = await ctx.db.select().from(settlementOrders).where(eq(settlementOrders.id, orderId));
  if (!order) return;
  await ctx.db.insert(settlementEvents).values({
    id: newId("evt", ctx.clock),
    orderId,
    kind,
    status: order.status,
    fundsStatus: order.fundsStatus,
    detail,
    at: ctx.clock.now(),
  });
}
