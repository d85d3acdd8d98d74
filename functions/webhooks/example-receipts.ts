import { receiptView } from "../../lib/ledger/receipt";
import type { PayoutStatus } from "../../lib/payouts/payout-view";
import { payoutReceipt } from "../../lib/payouts/receipt";
import {
  type SettlementEvent,
  type SettlementQuote,
  settlementReceipt,
  TIMELINE,
  type TimelineDetail,
  type TimelineKind,
} from "../../lib/settlement";
import { swapReceipt } from "../../lib/swaps/receipt";

// The catalog's example receipts, made by the receipt builders themselves from the examples' figures,
// so an example never shows a receipt the service could not answer.

const E12 = 10n ** 12n;
const usdc = (whole: number) => BigInt(Math.round(whole * 1e6));

const EXAMPLE_QUOTE = {
  sendAmountUsdc: usdc(100),
  transferUpfrontFeeUsdc: usdc(0.24),
  totalDebitUsdc: usdc(100.24),
  serviceFeeUsdc: usdc(1),
  partnerFeeUsdc: 0n,
  routeInputUsdc: usdc(99),
  expectedUsdm: 98_950_500n * E12,
  expectedCopm: 384_749_615_250_000_000_000_000n,
} as SettlementQuote;

/** The figures each example timeline entry records, by kind. */
const ORDER_DETAILS: { [K in TimelineKind]?: TimelineDetail<K> } = {
  BURN_VERIFIED: { amount: "100240000", maxFee: "240000", blockNumber: "1", logIndex: 0 },
  FORWARDED_MINT: { amount: "100040000", feeCollected: "200000", feeUnusedUsdc: "40000" },
  ROUTE_COMPLETED: { receivedUsdm: (98_950_500n * E12).toString() },
  EXCHANGED: { usdmIn: (98_950_500n * E12).toString(), copmOut: "384749615250000000000000" },
  DELIVERED: { copm: "384749615250000000000000", to: `0x${"de".repeat(20)}` },
  RETURN_BURNED: { amount: "100040000", maxFee: "240000", burnedAt: "2026-01-01T00:00:00Z" },
  RETURNED: { amount: "99840000", feeCollected: "200000", to: `0x${"5a".repeat(20)}` },
};

/** A settlement example's receipt from its timeline's kinds, chains, hashes and times. */
export function exampleOrderReceipt(
  timeline: readonly { at: string; kind: TimelineKind; chainId: number | null; txHash: string | null }[],
) {
  const events = timeline.flatMap((entry, index): SettlementEvent[] => {
    const event = (kind: TimelineKind, txHash: string | null, order = 0) => ({
      id: `evt_${index}_${order}`,
      orderId: "ord_example",
      kind,
      ...(TIMELINE[kind].moves ?? TIMELINE.ORDER_CREATED.moves),
      chainId: entry.chainId === null ? null : String(entry.chainId),
      txHash,
      detail: ORDER_DETAILS[kind] ?? {},
      at: new Date(entry.at),
    });
    // The exchange comes just before the delivery, on the same chain.
    if (entry.kind === "DELIVERED")
      return [event("EXCHANGED", `0x${"9c".repeat(32)}`), event("DELIVERED", entry.txHash, 1)];
    return [event(entry.kind, entry.txHash)];
  });
  return receiptView(settlementReceipt(EXAMPLE_QUOTE, events));
}

/** A payout example's receipt, from its amounts and the statuses it reached. */
export function examplePayoutReceipt(example: {
  payoutId: string;
  sourceAmount: string;
  providerAmount: string;
  serviceFee: string;
  destinationCop: string;
  depositTxHash: string | null;
  refundTxHash: string | null;
  updatedAt: string;
  timeline: readonly { at: string; status: PayoutStatus }[];
}) {
  const row = {
    id: example.payoutId,
    token: "USDC",
    chainId: 42220,
    sourceAmount: usdc(Number(example.sourceAmount)),
    providerAmount: usdc(Number(example.providerAmount)),
    serviceFee: usdc(Number(example.serviceFee)),
    partnerFee: 0n,
    destinationCop: BigInt(example.destinationCop),
    depositTxHash: example.depositTxHash,
    refundTxHash: example.refundTxHash,
    updatedAt: new Date(example.updatedAt),
  } as Parameters<typeof payoutReceipt>[0];
  const events = example.timeline.map((entry, index) => ({
    id: `pev_${index}`,
    payoutId: example.payoutId,
    at: new Date(entry.at),
    status: entry.status,
    detail: null,
    txHash: entry.status === "deposit_confirmed" ? example.depositTxHash : null,
  }));
  return receiptView(payoutReceipt(row, events));
}

/** A swap example's receipt. */
export function exampleSwapReceipt(example: {
  status: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  expectedAmountOut: string;
  chainId: number;
  txHash: string | null;
  amountInSwapped: string | null;
  amountOutReceived: string | null;
  confirmedAt: string | null;
}) {
  const row = {
    ...example,
    amountIn: BigInt(example.amountIn),
    expectedAmountOut: BigInt(example.expectedAmountOut),
    amountInSwapped: example.amountInSwapped === null ? null : BigInt(example.amountInSwapped),
    amountOutReceived: example.amountOutReceived === null ? null : BigInt(example.amountOutReceived),
    confirmedAt: example.confirmedAt === null ? null : new Date(example.confirmedAt),
  } as Parameters<typeof swapReceipt>[0];
  return receiptView(swapReceipt(row));
}
