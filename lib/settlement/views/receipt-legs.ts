import type { settlementEvents } from "../../../schema";
import type { TokenSymbol } from "../../kernel/money";
import type { ReceiptLeg } from "../../ledger/receipt";

/** The pieces a settlement receipt's legs are built with (receipt.ts). */

export type SettlementEvent = typeof settlementEvents.$inferSelect;

/** An entry the receipt cannot show: an end with no start, a mint with no burn. */
export class MissingLeg extends Error {}

export const chainOf = (event: SettlementEvent) => Number(event.chainId);

/** USDC (6 decimals) as USDm (18): the route carries dollars to dollars. */
export const USDC_TO_USDM = 10n ** 12n;

/** The route leg a completion or refund closes: the last one sent. */
export function openLeg(legs: ReceiptLeg[], kind: string, sent: SettlementEvent | undefined): ReceiptLeg {
  const leg = legs.findLast((candidate) => candidate.leg === kind);
  if (!sent || !leg) throw new MissingLeg(`a ${kind} ended that was never sent`);
  return leg;
}

export function burnChain(legs: readonly ReceiptLeg[]): number {
  const burn = legs.find((leg) => leg.leg === "burn");
  if (!burn) throw new MissingLeg("Circle minted for an order with no burn");
  return burn.chainId;
}

/**
 * A route's (or way back's) end: what arrived or came back, from the aggregator, when and where (the
 * arrival's transaction), and what the route cost; `renamed` when it ended refunded.
 */
export function routeEnded(
  route: ReceiptLeg,
  event: SettlementEvent,
  token: TokenSymbol,
  amount: bigint,
  cost: ReceiptLeg["fees"],
  renamed?: string,
): void {
  if (renamed) route.leg = renamed;
  route.tokenOut = token;
  route.amountOut = amount;
  route.fees = cost;
  route.movements.push({ at: event.at, token, chainId: chainOf(event), amount, counterparty: "aggregator" });
  route.relatedTxHashes = arrivedAt(event);
}

function arrivedAt(event: SettlementEvent): ReceiptLeg["relatedTxHashes"] {
  return event.txHash ? [{ chainId: chainOf(event), txHash: event.txHash, role: "arrival" }] : [];
}

/** What a route cost in dollars: its input less its output, both in USDC units (never below zero). */
export function aggregatorCost(inUsdc: bigint, outUsdc: bigint): ReceiptLeg["fees"] {
  const cost = inUsdc - outUsdc;
  return cost > 0n ? [{ type: "aggregator", token: "USDC", amount: cost }] : [];
}

/** A leg that moves one token unchanged: a burn, a delivery, a return's transfer. */
export function unchanged(token: TokenSymbol, amount: bigint) {
  return {
    tokenIn: token,
    amountIn: amount,
    tokenOut: token,
    amountOut: amount,
    fees: [] as ReceiptLeg["fees"],
  };
}

/** Circle's mint of a burn: the burned amount in, what was minted out, Circle's fee the difference. */
export function circleMint(minted: bigint, fee: bigint) {
  const fees: ReceiptLeg["fees"] = fee > 0n ? [{ type: "circle", token: "USDC", amount: fee }] : [];
  return {
    tokenIn: "USDC" as const,
    amountIn: minted + fee,
    tokenOut: "USDC" as const,
    amountOut: minted,
    fees,
  };
}
