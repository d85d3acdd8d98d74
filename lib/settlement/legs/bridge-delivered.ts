import type { Hex } from "viem";
import { mulDivDown } from "../../kernel/money";
import { BPS, ROUTE_SLIPPAGE_BPS } from "../limits";
import type { SettlementChains } from "../pricing/prices";
import { markStuck, noteUnless, type OrderState } from "../progress/state";
import {
  move,
  type ProgressContext,
  type Step,
  sendAll,
  settlementAccount,
  transferIn,
} from "../progress/steps";
import { type Arrival, arrivalOf, claimDelivery, deliveryTaken } from "./bridge-arrival";
import { unwindPartial } from "./bridge-unwind";
import { mentoSwap } from "./exchange";
import type { BridgeStatus } from "./ports";

/**
 * The route delivered (BRIDGE_OUTCOMES `done` and `partial`): USDm read from the aggregator's
 * receiving transaction moves the order to ROUTED; USDC or USDT is first converted to USDm through
 * Mento (ROUTE_PARTIAL, then CONVERTED, on the timeline).
 */

/**
 * The route delivered (DONE or PARTIAL): completed in another token than USDm is a partial delivery
 * whatever the aggregator calls it; a report naming no token is held to USDm on chain.
 */
export async function completed(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  status: BridgeStatus,
  routeHash: Hex,
): Promise<Step> {
  const { usdm, usdc } = chains.destination.contracts;
  const token = status.receivedToken?.toLowerCase();
  if (token === undefined || token === usdm.toLowerCase()) {
    const arrived = await arrivalOf(ctx, state, chains.destination, status, usdm);
    if (arrived === "wait") return "wait";
    return routeCompleted(ctx, state, chains, status, arrived, {
      receivedUsdm: arrived.amount.toString(),
    });
  }
  const { usdt } = chains.destination.contracts;
  const delivery = { routeHash, status };
  if (usdc && token === usdc.toLowerCase()) return convertPartial(ctx, state, chains, delivery, "USDC", usdc);
  if (usdt && token === usdt.toLowerCase()) return convertPartial(ctx, state, chains, delivery, "USDT", usdt);
  // Named: a token Mento does not trade goes back to USDC (bridge-unwind.ts).
  if (status.receivedToken) return unwindPartial(ctx, state, chains, delivery, status.receivedToken);
  await markStuck(ctx, state, "the aggregator delivered an unnamed token instead of USDm");
  return "wait";
}

/** USDm is in the settlement account on the destination chain: the order is ROUTED. */
function routeCompleted(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  status: BridgeStatus,
  arrived: Arrival,
  detail: { receivedUsdm: string } & Record<string, unknown>,
): Promise<Step> {
  return move(ctx, state, {
    kind: "ROUTE_COMPLETED",
    chainId: chains.destination.chainId,
    txHash: arrived.txHash,
    arrivedAt: arrived.minedAt,
    detail: {
      ...detail,
      logIndex: arrived.logIndex,
      ...(status.receivedAmount !== undefined && status.receivedAmount !== arrived.amount
        ? { reportedAmount: status.receivedAmount.toString() }
        : {}),
    },
  });
}

/**
 * The aggregator delivered USDC or USDT on the destination chain instead of USDm: the settlement
 * account exchanges it for USDm through Mento (its USDm/USDC or USDm/USDT pool; both stablecoins have
 * USDC's 6 decimals, so the route's cost reads the same), and the order goes on as routed with
 * what that gave; the exchange to COPm then holds it to the floor as always.
 */
async function convertPartial(
  ctx: ProgressContext,
  state: OrderState,
  chains: SettlementChains,
  { routeHash, status }: { routeHash: Hex; status: BridgeStatus },
  symbol: "USDC" | "USDT",
  paidIn: Hex,
): Promise<Step> {
  const { usdm, broker } = chains.destination.contracts;
  if (!broker) {
    await markStuck(
      ctx,
      state,
      `the aggregator delivered ${symbol} instead of USDm, and no Mento broker is configured`,
    );
    return "wait";
  }
  const delivered = await arrivalOf(ctx, state, chains.destination, status, paidIn, routeHash);
  if (delivered === "wait") return "wait";
  const arrived = delivered.amount;
  const claimed = await claimDelivery(ctx, state, delivered, {
    token: paidIn,
    symbol,
    amount: arrived.toString(),
    receivingTxHash: delivered.txHash,
    logIndex: delivered.logIndex,
    routeTxHash: routeHash,
  });
  if (!claimed) return deliveryTaken(ctx, state, delivered);
  const sent = await sendAll(ctx, state, chains.destination, [
    {
      purpose: "conversion",
      retriesAfterRevert: 3,
      prepare: async () => {
        const quote = await ctx.providers.pricing.exchange.quoteExchange({
          tokenIn: paidIn,
          tokenOut: usdm,
          amountIn: arrived,
        });
        return mentoSwap(broker, quote, {
          tokenIn: paidIn,
          tokenOut: usdm,
          amountIn: arrived,
          minAmountOut: mulDivDown(quote.amountOut, BPS - ROUTE_SLIPPAGE_BPS, BPS),
        });
      },
    },
  ]);
  if (sent === "wait") return "wait";
  const conversion = sent.hashes.conversion as Hex;
  const { transfer: bought } = await transferIn(chains.destination, conversion, usdm, settlementAccount(ctx));
  if (!bought) throw new Error(`the conversion ${conversion} shows no USDm to the settlement account`);
  await noteUnless(
    ctx,
    state,
    "CONVERTED",
    { amountIn: arrived.toString(), usdmOut: bought.args.value.toString(), conversionTxHash: conversion },
    (earlier) => earlier.some((detail) => detail?.conversionTxHash === conversion),
  );
  return routeCompleted(ctx, state, chains, status, delivered, {
    receivedUsdm: bought.args.value.toString(),
    partial: { token: paidIn, symbol, amount: arrived.toString(), conversionTxHash: conversion },
  });
}
