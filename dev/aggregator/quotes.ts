import { encodeFunctionData, getAddress, type Hex, padHex } from "viem";
import { BPS_PER_UNIT } from "../../lib/kernel/basis-points";
import { parseDecimalFraction } from "../../lib/kernel/decimal-fraction";
import { mulDivDown, rescale } from "../../lib/kernel/money";
import { sandboxRouterAbi } from "../chains/abis";

/** What the local aggregator keeps of every route, in basis points: its quotes and its relayer agree. */
export const LOCAL_ROUTE_COST_BPS = 10;

/** A token's decimals on each side of a route. */
export interface RouteDecimals {
  from: number;
  to: number;
}

/**
 * One way the local aggregator carries: a token on one chain to a token on another, through the
 * router on the first chain (which burns the input and logs the request) and the relay receiver on
 * the second (which pays the output). A settlement's route is USDC on the intermediate chain to USDm
 * on the destination chain; a return's way back is the reverse.
 */
export interface Carriage {
  fromChainId: number;
  toChainId: number;
  tokenIn: Hex;
  tokenOut: Hex;
  router: Hex;
  receiver: Hex;
  decimals: RouteDecimals;
  /** Whether an order's test amount chooses the outcome: a settlement's way out only. */
  testAmounts: boolean;
}

/**
 * What the local aggregator delivers for `fromAmount`: one to one in value, rescaled between the
 * tokens' decimals, less LOCAL_ROUTE_COST_BPS, rounded down. Its quotes promise it and its relayer pays it.
 */
export function routeAmountOut(fromAmount: bigint, decimals: RouteDecimals): bigint {
  return mulDivDown(
    rescale(fromAmount, decimals.from, decimals.to),
    BPS_PER_UNIT - BigInt(LOCAL_ROUTE_COST_BPS),
    BPS_PER_UNIT,
  );
}

/** The query of LI.FI's `GET /v1/quote` (docs.li.fi, "Request a quote"), as the local aggregator reads it. */
export interface QuoteQuery {
  fromChain: number;
  toChain: number;
  fromToken: Hex;
  toToken: Hex;
  fromAmount: bigint;
  fromAddress: Hex;
  toAddress: Hex;
  /** A fraction: 0.005 is 0.5% (LI.FI's default). */
  slippage: string;
  referrer?: Hex;
}

/** LI.FI's error for "no quote for this transfer" (`@lifi/types` errors: NoQuoteError). */
export const NO_QUOTE = { code: 1002, message: "Unable to find a quote for the requested transfer." };

/**
 * LI.FI's answer to `GET /v1/quote` for one carriage: a Step (`@lifi/types` LiFiStep) whose
 * `estimate` holds what it delivers and its minimum after slippage, and whose `transactionRequest`
 * is the router's `route` call the sender signs, carrying the caller's `referrer` as its memo (LI.FI
 * writes the referrer into the calldata it builds). `approvalAddress` is the router, which pulls
 * the input.
 */
export function quoteOf(carriage: Carriage, query: QuoteQuery, id: string): Record<string, unknown> {
  const slippage = parseDecimalFraction(query.slippage);
  if (!slippage || slippage.numerator >= slippage.denominator) {
    throw new RangeError(`slippage must be a fraction below 1, got ${query.slippage}`);
  }
  const toAmount = routeAmountOut(query.fromAmount, carriage.decimals);
  const toAmountMin = mulDivDown(toAmount, slippage.denominator - slippage.numerator, slippage.denominator);
  const memo = query.referrer
    ? padHex(query.referrer, { size: 32, dir: "right" })
    : padHex("0x", { size: 32 });
  const data = encodeFunctionData({
    abi: sandboxRouterAbi,
    functionName: "route",
    args: [
      carriage.tokenIn,
      query.fromAmount,
      BigInt(carriage.toChainId),
      carriage.tokenOut,
      query.toAddress,
      toAmountMin,
      memo,
    ],
  });
  const token = (address: Hex, chainId: number) => ({ address: getAddress(address), chainId });
  return {
    id,
    type: "lifi",
    tool: "local-router",
    toolDetails: { key: "local-router", name: "Local router", logoURI: "" },
    action: {
      fromChainId: query.fromChain,
      toChainId: query.toChain,
      fromToken: token(carriage.tokenIn, carriage.fromChainId),
      toToken: token(carriage.tokenOut, carriage.toChainId),
      fromAmount: query.fromAmount.toString(),
      fromAddress: query.fromAddress,
      toAddress: query.toAddress,
      slippage: Number(query.slippage),
    },
    estimate: {
      tool: "local-router",
      approvalAddress: getAddress(carriage.router),
      fromAmount: query.fromAmount.toString(),
      toAmount: toAmount.toString(),
      toAmountMin: toAmountMin.toString(),
      executionDuration: 5,
      feeCosts: [],
      gasCosts: [],
    },
    transactionRequest: {
      to: getAddress(carriage.router),
      from: query.fromAddress,
      data,
      value: "0x0",
      chainId: carriage.fromChainId,
      gasLimit: "0x7a120",
    },
  };
}
