import { and, asc, eq, gte, ne, notInArray, sql } from "drizzle-orm";
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
import { TIMELINE, type TimelineKind } from "../timeline";
import { type MoveKind, type NoteKind, type TimelineDetail, timelineDetail } from "../timeline-entries";
import type { SettlementEvent, SettlementOrder } from "../views/order";
import { recordOrderEvents } from "./events";

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

/**
 * The order's entries of a kind, oldest first, each with its detail checked against the kind's
 * figures (undefined when malformed: an entry written by hand).
 */
export function entriesOf<K extends TimelineKind>(
  state: OrderState,
  kind: K,
): Array<{ entry: SettlementEvent; detail: TimelineDetail<K> | undefined }> {
  return state.events
    .filter((event) => event.kind === kind)
    .map((entry) => ({ entry, detail: timelineDetail(kind, entry.detail) }));
}

/** The detail of the latest entry of a kind (undefined: none, or malformed). */
export function detailOf<K extends TimelineKind>(state: OrderState, kind: K): TimelineDetail<K> | undefined {
  return entriesOf(state, kind).at(-1)?.detail;
}

/** A move of an order: its kind fixes the status pair it moves to (TIMELINE) and what its detail records. */
export type Move = {
  [K in MoveKind]: {
    kind: K;
    chainId?: number;
    txHash?: string;
    /**
     * For a move that books a Transfer (`detail.logIndex`): when its block was mined. Another order's
     * booking of that Transfer from before then is another history of a reset local chain; any
     * later one takes it. Without it, any other order's booking takes it.
     */
    arrivedAt?: Date;
    // biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks whether every key of T is optional.
  } & ({} extends TimelineDetail<K> ? { detail?: TimelineDetail<K> } : { detail: TimelineDetail<K> });
}[MoveKind];

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
  const { status, fundsStatus } = TIMELINE[move.kind].moves;
  const moved = await ctx.db.transaction(async (tx) => {
    // Its health as of this transaction (a concurrent markStuck may have changed what `state` says).
    const [current] = await tx
      .select({ health: settlementOrders.health })
      .from(settlementOrders)
      .where(eq(settlementOrders.id, state.order.id))
      .for("update");
    if (await arrivalTaken(tx, state, move)) return false;
    const [moved] = await tx
      .update(settlementOrders)
      .set({
        status,
        fundsStatus,
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
      status,
      fundsStatus,
      chainId: move.chainId === undefined ? null : String(move.chainId),
      // In lower case whoever reported it (Circle's and the aggregator's hashes come as they send them),
      // so a lookup by hash finds it.
      txHash: move.txHash?.toLowerCase() ?? null,
      detail: move.detail ?? null,
      at: now,
    });
    await recordOrderEvents(ctx, tx, state.order.id, [
      current?.health === "STUCK" ? "settlement.order.recovered" : undefined,
      // A move notifies only when it changes the status (a refunded route back to MINTED does).
      state.order.status === status ? undefined : (TIMELINE[move.kind].webhook ?? undefined),
    ]);
    return true;
  });
  return moved;
}

/**
 * A move that books a Transfer (its transaction and log index: a route delivered or refunded, a way
 * back) is one order's, ever. The leg checked that no other order booked it, outside this
 * transaction; two orders booking one Transfer at once are serialized here on a lock of that
 * Transfer, and the later one finds the other's booking and does not move (its next look finds the
 * Transfer taken). Only a booking from before the Transfer's block was mined is let be: the other
 * history of a reset local chain, as the leg judged it.
 */
async function arrivalTaken(tx: Database, state: OrderState, move: Move): Promise<boolean> {
  const logIndex = (move.detail as { logIndex?: unknown } | undefined)?.logIndex;
  if (!move.txHash || typeof logIndex !== "number") return false;
  const txHash = move.txHash.toLowerCase();
  await lockTransfer(tx, txHash, logIndex);
  const [taken] = await tx
    .select({ id: settlementEvents.id })
    .from(settlementEvents)
    .where(
      and(
        eq(settlementEvents.txHash, txHash),
        ne(settlementEvents.orderId, state.order.id),
        sql`${settlementEvents.detail}->>'logIndex' = ${String(logIndex)}`,
        ...(move.arrivedAt ? [gte(settlementEvents.at, move.arrivedAt)] : []),
      ),
    )
    .limit(1);
  return taken !== undefined;
}

/** Serializes, to the end of the transaction, whoever books or claims this Transfer. */
export async function lockTransfer(tx: Database, txHash: string, logIndex: number): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${txHash.toLowerCase()}:${logIndex}`}, 0))`,
  );
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
    await recordOrderEvents(ctx, tx, state.order.id, [TIMELINE.STUCK.webhook]);
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
  kind: "ATTESTATION_DELAYED" | "EXCHANGE_DELAYED" | "EXCHANGE_HALTED",
  reason: string,
): Promise<void> {
  await noteUnless(ctx, state, kind, { reason }, (earlier) => earlier.at(-1)?.reason === reason);
}

/**
 * Adds a note unless the order's entries of its kind already say it (`noted`): judged on the order
 * as read, then again under a lock on the order's notes of that kind in the note's transaction, so
 * two jobs looking at once write it once.
 */
export async function noteUnless<K extends NoteKind>(
  ctx: ServiceContext,
  state: OrderState,
  kind: K,
  detail: TimelineDetail<K>,
  noted: (earlier: Array<TimelineDetail<K> | undefined>) => boolean,
): Promise<void> {
  if (noted(entriesOf(state, kind).map((entry) => entry.detail))) return;
  const orderId = state.order.id;
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`note:${orderId}:${kind}`}, 0))`);
    const earlier = await tx
      .select({ detail: settlementEvents.detail })
      .from(settlementEvents)
      .where(and(eq(settlementEvents.orderId, orderId), eq(settlementEvents.kind, kind)))
      .orderBy(asc(settlementEvents.at), asc(settlementEvents.id));
    if (noted(earlier.map((entry) => timelineDetail(kind, entry.detail)))) return;
    await noteOnTimeline(ctx, orderId, kind, detail, tx as unknown as Database);
  });
}

/**
 * Adds an entry to an order's timeline without moving it (the order's current status and funds
 * status): what happened to one of its payments that a partner or operator should see.
 */
export async function noteOnTimeline<K extends NoteKind>(
  ctx: ServiceContext,
  orderId: string,
  kind: K,
  detail: TimelineDetail<K>,
  /** A transaction the note joins (one that holds a lock the note must be written under). */
  db: Database = ctx.db,
  /** The transaction the note names (a delivery it claims), lower case like a move's. */
  txHash?: string,
): Promise<void> {
  const [order] = await db.select().from(settlementOrders).where(eq(settlementOrders.id, orderId));
  if (!order) return;
  await db.transaction(async (tx) => {
    await tx.insert(settlementEvents).values({
      id: newId("evt", ctx.clock),
      orderId,
      kind,
      status: order.status,
      fundsStatus: order.fundsStatus,
      ...(txHash ? { txHash: txHash.toLowerCase() } : {}),
      detail,
      at: ctx.clock.now(),
    });
    // The note's event leaves with it or not at all, carrying the order with the note on its timeline.
    await recordOrderEvents(ctx, tx, orderId, [TIMELINE[kind].webhook ?? undefined]);
  });
}
