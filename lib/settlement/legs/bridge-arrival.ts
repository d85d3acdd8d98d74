import { and, eq, ne, sql } from "drizzle-orm";
import { type Hex, isAddressEqual, parseEventLogs } from "viem";
import { settlementEvents } from "../../../schema";
import { erc20Abi } from "../../kernel/chain/abis";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { Database } from "../../kernel/db/database";
import type { SettlementChains } from "../pricing/prices";
import { markStuck, type OrderState } from "../progress/state";
import { type ProgressContext, settlementAccount } from "../progress/steps";
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
  },
): Promise<Arrival | "pending" | "missing"> {
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
    const booked = await bookedByAnother(db, input.orderId, input.txHash, transfer.logIndex);
    // Booked before this receipt's block existed: another history of a local chain that was reset
    // (the same signed bytes, the same hash), not this Transfer.
    if (booked && booked >= minedAt) continue;
    free.push(transfer);
  }
  const chosen =
    free.find((log) => log.args.value === input.reported) ?? (free.length === 1 ? free[0] : undefined);
  if (!chosen) return "missing";
  return { amount: chosen.args.value, txHash: input.txHash, logIndex: chosen.logIndex, minedAt };
}

/** When another order's timeline booked this log of this transaction as its arrival, if one did. */
async function bookedByAnother(
  db: Database,
  orderId: string,
  txHash: Hex,
  logIndex: number,
): Promise<Date | undefined> {
  const [found] = await db
    .select({ at: settlementEvents.at })
    .from(settlementEvents)
    .where(
      and(
        eq(settlementEvents.txHash, txHash),
        ne(settlementEvents.orderId, orderId),
        sql`${settlementEvents.detail}->>'logIndex' = ${String(logIndex)}`,
      ),
    )
    .limit(1);
  return found?.at;
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
): Promise<Arrival | "wait"> {
  if (!status.receivingTxHash) return "wait";
  const arrived = await arrivalOnChain(ctx.db, {
    orderId: state.order.id,
    chain,
    txHash: status.receivingTxHash.toLowerCase() as Hex,
    token,
    to: settlementAccount(ctx),
    reported: status.receivedAmount,
  });
  if (arrived === "pending") return "wait";
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
