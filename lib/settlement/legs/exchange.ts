import { encodeFunctionData, type Hex } from "viem";
import { erc20Abi, mentoBrokerAbi } from "../../kernel/chain/abis";
import type { Database } from "../../kernel/db/database";
import { ApiError } from "../../kernel/errors/api-error";
import { ProviderFailure, type ProviderFailureKind } from "../../kernel/provider-failure";
import type { PaymentRequest } from "../payments";
import type { ExchangeQuote } from "../pricing/ports";
import type { SettlementChains } from "../pricing/prices";
import { detailOf, markStuck, noteOnce, type OrderState } from "../progress/state";
import {
  move,
  type ProgressContext,
  type Step,
  sendAll,
  settlementAccount,
  transferIn,
} from "../progress/steps";
import { legOverdue } from "./deadlines";
import type { LegOutcome } from "./outcome";
import { heldOnIntermediate, isReturning } from "./return";
import { decideReturn } from "./return-decision";

/**
 * The settlement account's swap through Mento's Broker at a quote: spends `amountIn` of its standing
 * allowance, and names the quote's pool, so the account's swaps in one pool go out one at a time,
 * each priced and checked against the trading limits on the state the previous one left.
 */
export function mentoSwap(
  broker: Hex,
  quote: ExchangeQuote,
  swap: { tokenIn: Hex; tokenOut: Hex; amountIn: bigint; minAmountOut: bigint },
): PaymentRequest {
  return {
    allowance: { token: swap.tokenIn, spender: broker, amount: swap.amountIn },
    serialWith: `mento:${quote.exchangeProvider.toLowerCase()}:${quote.exchangeId.toLowerCase()}`,
    to: broker,
    data: encodeFunctionData({
      abi: mentoBrokerAbi,
      functionName: "swapIn",
      args: [
        quote.exchangeProvider,
        quote.exchangeId,
        swap.tokenIn,
        swap.tokenOut,
        swap.amountIn,
        swap.minAmountOut,
      ],
    }),
    value: 0n,
  };
}

/** The destination chain's legs: Mento's exchange of USDm for COPm, then the delivery to the user. */

/**
 * Every outcome of pricing the exchange on Mento and what the service does with it: the table the
 * exchange leg runs (a failure's timeline note) and docs/outcomes.md shows. A new failure kind fails
 * to compile until it has a row.
 */
export const EXCHANGE_OUTCOMES = {
  priced: {
    reported: "Mento's Broker prices the USDm at or above the order's floor (`copAmountMin`)",
    does: "swaps through the Broker with the floor as its minimum (a recorded `exchange` payment; a swap mined reverted is set aside and signed afresh, up to 3 times) and reads the COPm Transfer back",
    endsIn: "`EXCHANGED` (status `ROUTED`, funds `COPM_ON_DESTINATION`), then the delivery",
    note: undefined,
  },
  below_floor: {
    reported: "Mento prices it below the floor",
    does: "an `EXCHANGE_DELAYED` entry (`below_floor`), once; waits for the rate for the order's retry window (the `ROUTED` deadline from the route's arrival), then decides the return",
    endsIn: "`DELIVERED` if the rate comes back in the window, else `RETURNED` by the way back",
    note: { kind: "EXCHANGE_DELAYED", reason: "below_floor" },
  },
  capacity_exceeded: {
    reported: "the trade would exceed one of Mento's trading limits (L0, L1, global)",
    does: "an `EXCHANGE_DELAYED` entry (`mento_trading_limit`), once; prices again every poll",
    endsIn: "`ROUTED` until the limit frees; `STUCK` past the `ROUTED` deadline, and still priced",
    note: { kind: "EXCHANGE_DELAYED", reason: "mento_trading_limit" },
  },
  trading_halted: {
    reported: "Mento's BreakerBox halts the pool's rate feed (a circuit breaker tripped: trading mode not 0)",
    does: "an `EXCHANGE_HALTED` entry (`mento_trading_halted`), once; prices again every poll until the breaker resets after its cooldown; then as `priced` or `below_floor`",
    endsIn: "`ROUTED` until the reset; `STUCK` past the `ROUTED` deadline, and still priced",
    note: { kind: "EXCHANGE_HALTED", reason: "mento_trading_halted" },
  },
  no_route: {
    reported: "Mento lists no pool for USDm/COPm, or prices it at nothing",
    does: "logs it and prices again every poll (a pool re-listed by Mento's governance is found)",
    endsIn: "`ROUTED`; `STUCK` past the `ROUTED` deadline, and still priced",
    note: undefined,
  },
  unavailable: {
    reported: "the destination chain's RPC did not answer, or answered something unreadable",
    does: "logs it and prices again at the next poll",
    endsIn: "`ROUTED`; `STUCK` past the `ROUTED` deadline, and still priced",
    note: undefined,
  },
} satisfies Record<
  ProviderFailureKind | "priced" | "below_floor",
  LegOutcome & { note: { kind: "EXCHANGE_DELAYED" | "EXCHANGE_HALTED"; reason: string } | undefined }
>;

export async function exchange(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const received = BigInt(detailOf(state, "ROUTE_COMPLETED")?.receivedUsdm ?? "0");
  const { usdm, copm } = chains.destination.contracts;
  const broker = chains.destination.contracts.broker;
  if (!broker || received === 0n)
    throw new Error(`order ${state.order.id} cannot exchange: no broker or no USDm`);
  const sent = await sendAll(ctx, state, chains.destination, [
    {
      purpose: "exchange",
      // Mento's limit can close between the price and the block; a reverted swap moved nothing.
      retriesAfterRevert: 3,
      // A return decided meanwhile wins: the USDm goes back instead (bridge-back.ts).
      withdrawn: (tx) => isReturning(tx, state.order.id),
      // Priced afresh only when no exchange is recorded: a recorded one is watched as signed.
      prepare: async () => {
        const quote = await ctx.providers.pricing.exchange
          .quoteExchange({ tokenIn: usdm, tokenOut: copm, amountIn: received })
          .catch(async (error: unknown) => {
            if (!(error instanceof ProviderFailure)) throw error;
            // The order says why it waits (once), then looks again.
            const { note } = EXCHANGE_OUTCOMES[error.kind];
            if (note) await noteOnce(ctx, state, note.kind, note.reason);
            throw error;
          });
        if (quote.amountOut < state.quote.copAmountMin) return belowFloor(ctx, state, quote.amountOut);
        return mentoSwap(broker, quote, {
          tokenIn: usdm,
          tokenOut: copm,
          amountIn: received,
          minAmountOut: state.quote.copAmountMin,
        });
      },
    },
  ]);
  if (sent === "wait") return "wait";
  const exchangeHash = sent.hashes.exchange as Hex;
  const { transfer: bought } = await transferIn(
    chains.destination,
    exchangeHash,
    copm,
    settlementAccount(ctx),
  );
  if (!bought) throw new Error(`the exchange ${exchangeHash} shows no COPm to the settlement account`);
  return move(ctx, state, {
    kind: "EXCHANGED",
    chainId: chains.destination.chainId,
    txHash: exchangeHash,
    detail: { usdmIn: received.toString(), copmOut: bought.args.value.toString() },
  });
}

/**
 * Mento gives less than the order's floor: the order waits for the rate to come back, saying why
 * once (EXCHANGE_DELAYED, below_floor), for its retry window (the ROUTED deadline from when its USDm
 * arrived); past it, the service decides the order's return and its USDm goes back to the user.
 */
async function belowFloor(
  ctx: ProgressContext,
  state: OrderState,
  amountOut: bigint,
): Promise<{ notYet: string }> {
  const why = `Mento now gives ${amountOut} COPm, below the floor ${state.quote.copAmountMin}`;
  const { note } = EXCHANGE_OUTCOMES.below_floor;
  await noteOnce(ctx, state, note.kind, note.reason);
  const arrived = state.events.filter((event) => event.kind === "ROUTE_COMPLETED").at(-1)?.at;
  if (arrived && legOverdue(ctx, "ROUTED", arrived)) {
    await decideReturn(ctx, state.order.id, {
      by: "service",
      reason: `${why} past the order's retry window`,
    }).catch((error: unknown) => {
      // Another job's exchange was recorded meanwhile: the order met its floor and delivers.
      if (!(error instanceof ApiError && error.code === "ORDER_NOT_RETURNABLE")) throw error;
    });
  }
  return { notYet: why };
}

export async function deliver(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<Step> {
  const amount = BigInt(detailOf(state, "EXCHANGED")?.copmOut ?? "0");
  const { copm } = chains.destination.contracts;
  const destination = state.quote.destinationAddress as Hex;
  if (amount < state.quote.copAmountMin)
    throw new Error(`order ${state.order.id} has ${amount} COPm, below its floor`);
  const sent = await transferOnce(ctx, state, chains.destination, {
    purpose: "delivery",
    token: copm,
    to: destination,
    amount,
  });
  if (sent === "wait") return "wait";
  // DELIVERED only on the Transfer read back from the successful receipt.
  const delivered =
    sent.value !== undefined && sent.value >= state.quote.copAmountMin ? sent.value : undefined;
  if (delivered === undefined) {
    await markStuck(ctx, state, `the delivery ${sent.txHash} shows no COPm Transfer of at least the floor`);
    return "wait";
  }
  const partnerFee = await payPartnerFee(ctx, state, chains);
  if (partnerFee === "wait") return "wait";
  // What the order holds on the intermediate chain after the partner's fee is what the service can
  // keep of its own; less than quoted only after a route refunded at a loss.
  const left = heldOnIntermediate(state) - BigInt(partnerFee?.amount ?? "0");
  const kept =
    left < state.quote.serviceFeeUsdc ? { serviceFeeKept: (left > 0n ? left : 0n).toString() } : {};
  return move(ctx, state, {
    kind: "DELIVERED",
    chainId: chains.destination.chainId,
    txHash: sent.txHash,
    detail: { copm: delivered.toString(), to: destination, ...(partnerFee ? { partnerFee } : {}), ...kept },
  });
}

/**
 * The organization's own fee, once the user has the COPm: the settlement account pays it in USDC on
 * the intermediate chain (where the route left it, with the service's fee) to the organization's
 * address the quote named, and reads the Transfer back. Undefined when the quote has none. It is paid
 * from what this order still holds there, never from other orders' money in the shared account: an
 * order that holds less (an aggregator kept part of a refunded route) pays what it holds, and the
 * rest is `owed` on the DELIVERED entry, a shortfall on the receipt.
 */
async function payPartnerFee(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
): Promise<"wait" | undefined | PartnerFeePaid> {
  const owed = state.quote.partnerFeeUsdc;
  const to = state.quote.partnerFeeAddress as Hex | null;
  if (owed === 0n || !to) return undefined;
  const held = heldOnIntermediate(state);
  const amount = owed <= held ? owed : held > 0n ? held : 0n;
  const chainId = chains.intermediate.chainId;
  const short = amount < owed ? { owed: owed.toString() } : {};
  if (amount < owed) {
    ctx.log.warn("partner fee short: the order holds less than the fee", {
      orderId: state.order.id,
      owed: owed.toString(),
      held: held.toString(),
    });
  }
  if (amount === 0n) return { amount: "0", to, chainId, ...short };
  const { usdc } = chains.intermediate.contracts;
  const sent = await transferOnce(ctx, state, chains.intermediate, {
    purpose: "partner-fee",
    token: usdc,
    to,
    amount,
  });
  if (sent === "wait") return "wait";
  const { txHash } = sent;
  if (sent.value !== amount) {
    await markStuck(ctx, state, `the partner fee ${txHash} shows no USDC Transfer of ${amount} to ${to}`);
    return "wait";
  }
  return { amount: amount.toString(), to, chainId, txHash, ...short };
}

interface PartnerFeePaid {
  amount: string;
  to: string;
  chainId: number;
  txHash?: string;
  owed?: string;
}

/**
 * One ERC-20 transfer of the settlement account for the order (recorded before it is broadcast, so
 * never sent twice), and what the chain says it moved: the value of its Transfer to `to` in a
 * successful receipt, undefined when there is none.
 */
export async function transferOnce(
  ctx: ProgressContext,
  state: OrderState,
  chain: Parameters<typeof sendAll>[2],
  payment: {
    purpose: string;
    token: Hex;
    to: Hex;
    amount: bigint;
    withdrawn?: (tx: Database) => Promise<boolean>;
  },
): Promise<"wait" | { txHash: Hex; value: bigint | undefined }> {
  const sent = await sendAll(ctx, state, chain, [
    {
      purpose: payment.purpose,
      ...(payment.withdrawn ? { withdrawn: payment.withdrawn } : {}),
      prepare: async () => ({
        to: payment.token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "transfer",
          args: [payment.to, payment.amount],
        }),
        value: 0n,
      }),
    },
  ]);
  if (sent === "wait") return "wait";
  const txHash = sent.hashes[payment.purpose] as Hex;
  const { receipt, transfer } = await transferIn(chain, txHash, payment.token, payment.to);
  return { txHash, value: receipt.status === "success" ? transfer?.args.value : undefined };
}
