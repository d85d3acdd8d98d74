import { and, desc, eq, sql } from "drizzle-orm";
import { type Hex, isAddressEqual, parseEventLogs } from "viem";
import { settlementEvents } from "../../../schema";
import { erc20Abi } from "../../kernel/chain/abis";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { Database } from "../../kernel/db/database";
import type { SettlementChains } from "../pricing/prices";
import { lockTransfer, markStuck, noteOnTimeline, type OrderState } from "../progress/state";
import { type ProgressContext, settlementAccount } from "../progress/steps";
import type { TimelineDetail } from "../timeline-entries";
import type { BridgeStatus } from "./ports";

/** What the chain shows arrived: the Transfer the books record, by its transaction and log index. */
export interface Arrival {
  amount: bigint;
  txHash: Hex;
  logIndex: number;
  /** When its block was mined: the move that books it is judged against other bookings by this. */
  minedAt: Date;
}

/**
 * What an aggregator's report of money arriving (a route delivered, a route refunded) is worth on
 * chain: a Transfer of `token` to `to` in the successful receipt of the transaction the aggregator
 * named, never the aggregator's figure. Of several such Transfers in one receipt, the one of the
 * reported amount; a Transfer another order already booked (a report pointing at someone else's
 * money) counts for nothing. `pending` while the chain has no receipt; `missing` when it shows no
 * such Transfer.
 */
export async function arrivalOnChain(
  db: Database,
  input: {
    orderId: string;
    chain: ConfiguredChain;
    txHash: Hex;
    token: Hex;
    to: Hex;
    reported: bigint | undefined;
    /** The route whose own delivery claim (ROUTE_PARTIAL) of the Transfer does not count against it. */
    claimedFor?: Hex;
    /** The order's entries the caller read: its own entries beyond them are a concurrent job's. */
    known?: ReadonlySet<string>;
  },
): Promise<Arrival | "pending" | "missing" | "taken"> {
  const receipt = await receiptOrUndefined(input.chain.client, input.txHash);
  if (!receipt) return "pending";
  if (receipt.status !== "success") return "missing";
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).filter(
    (log) => isAddressEqual(log.address, input.token) && isAddressEqual(log.args.to, input.to),
  );
  const minedAt = new Date(
    Number((await input.chain.client.getBlock({ blockNumber: receipt.blockNumber })).timestamp) * 1000,
  );
  const free: typeof transfers = [];
  for (const transfer of transfers) {
    const booked = await bookedBefore(db, { ...input, logIndex: transfer.logIndex });
    // Booked before this receipt's block existed: another history of a local chain that was reset
    // (the same signed bytes, the same hash), not this Transfer.
    if (booked && booked >= minedAt) continue;
    free.push(transfer);
  }
  const chosen =
    free.find((log) => log.args.value === input.reported) ?? (free.length === 1 ? free[0] : undefined);
  if (!chosen) return transfers.length > 0 && free.length === 0 ? "taken" : "missing";
  return { amount: chosen.args.value, txHash: input.txHash, logIndex: chosen.logIndex, minedAt };
}

/**
 * When this log of this transaction was booked already, if it was: by another order in any entry
 * (an arrival, or a delivery it claimed), or by this order as an arrival (a refund or delivery read
 * once cannot be read again for a later route) or as the claim of another route's delivery. Only this
 * order's own claim for `claimedFor` does not count (the delivery it claimed, going on), nor this
 * order's entries the caller had not read (`known`): a concurrent job of the order made them, and
 * the caller's move from its older state cannot be made.
 */
async function bookedBefore(
  db: Database,
  input: { orderId: string; txHash: Hex; logIndex: number; claimedFor?: Hex; known?: ReadonlySet<string> },
): Promise<Date | undefined> {
  const bookings = await db
    .select({
      id: settlementEvents.id,
      orderId: settlementEvents.orderId,
      kind: settlementEvents.kind,
      detail: settlementEvents.detail,
      at: settlementEvents.at,
    })
    .from(settlementEvents)
    .where(
      and(
        eq(settlementEvents.txHash, input.txHash.toLowerCase()),
        sql`${settlementEvents.detail}->>'logIndex' = ${String(input.logIndex)}`,
      ),
    )
    .orderBy(desc(settlementEvents.at));
  const counts = bookings.filter((booking) => {
    if (booking.orderId !== input.orderId) return true;
    if (input.known && !input.known.has(booking.id)) return false;
    const route = (booking.detail as { routeTxHash?: string } | null)?.routeTxHash?.toLowerCase();
    return !(
      booking.kind === "ROUTE_PARTIAL" &&
      route !== undefined &&
      route === input.claimedFor?.toLowerCase()
    );
  });
  return counts[0]?.at;
}

/**
 * Claims a delivery in another token than USDm for the order's route before anything spends it
 * (a ROUTE_PARTIAL entry naming the Transfer), under the same lock as a move that books a Transfer:
 * false when another order, or another of its routes, booked it meanwhile. Claiming again for the
 * same route is a no-op, and so is claiming from a state older than a concurrent job's claim.
 */
export async function claimDelivery(
  ctx: ProgressContext,
  state: OrderState,
  delivered: Arrival,
  detail: TimelineDetail<"ROUTE_PARTIAL"> & { routeTxHash: Hex },
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    await lockTransfer(tx as unknown as Database, delivered.txHash, delivered.logIndex);
    const claim = { orderId: state.order.id, txHash: delivered.txHash, logIndex: delivered.logIndex };
    const booked = await bookedBefore(tx as unknown as Database, {
      ...claim,
      claimedFor: detail.routeTxHash,
      // Entries of this order that `state` does not hold were made by a job of it that ran at the same
      // time: they booked this delivery for it, and that job goes on from them (arrivalOf reads so too).
      known: new Set(state.events.map((event) => event.id)),
    });
    if (booked && booked >= delivered.minedAt) return false;
    const [mine] = await tx
      .select({ id: settlementEvents.id })
      .from(settlementEvents)
      .where(
        and(
          eq(settlementEvents.orderId, state.order.id),
          eq(settlementEvents.kind, "ROUTE_PARTIAL"),
          eq(settlementEvents.txHash, delivered.txHash.toLowerCase()),
        ),
      )
      .limit(1);
    if (!mine) {
      await noteOnTimeline(
        ctx,
        state.order.id,
        "ROUTE_PARTIAL",
        detail,
        tx as unknown as Database,
        delivered.txHash,
      );
    }
    return true;
  });
}

/**
 * What the aggregator's receiving transaction shows arrived in the settlement account, as
 * arrivalOnChain reads it; "wait" while it is not mined, the order STUCK when the chain shows no
 * such Transfer (the report is not money the order may spend).
 */
export async function arrivalOf(
  ctx: ProgressContext,
  state: OrderState,
  chain: SettlementChains["destination"] | SettlementChains["intermediate"],
  status: BridgeStatus,
  token: Hex,
  claimedFor?: Hex,
): Promise<Arrival | "wait"> {
  if (!status.receivingTxHash) return "wait";
  const arrived = await arrivalOnChain(ctx.db, {
    orderId: state.order.id,
    chain,
    txHash: status.receivingTxHash.toLowerCase() as Hex,
    token,
    to: settlementAccount(ctx),
    reported: status.receivedAmount,
    known: new Set(state.events.map((event) => event.id)),
    ...(claimedFor ? { claimedFor } : {}),
  });
  if (arrived === "pending") return "wait";
  if (arrived === "taken") {
    await markStuck(
      ctx,
      state,
      `the aggregator names ${status.receivingTxHash} as this order's, whose Transfer to the settlement account is already booked (by another order, or an earlier route of this one)`,
    );
    return "wait";
  }
  if (arrived === "missing") {
    await markStuck(
      ctx,
      state,
      `the aggregator reports ${status.receivedAmount ?? "an amount"} of ${token} in ${status.receivingTxHash}, which shows no such Transfer to the settlement account`,
    );
    return "wait";
  }
  return arrived;
}

/** A delivery another order (or an earlier route of this one) booked: not this route's money. */
export async function deliveryTaken(
  ctx: ProgressContext,
  state: OrderState,
  delivered: Arrival,
): Promise<"wait"> {
  await markStuck(
    ctx,
    state,
    `the aggregator names ${delivered.txHash} (log ${delivered.logIndex}) as this route's delivery, which is already booked`,
  );
  return "wait";
}
