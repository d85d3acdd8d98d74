import { concatHex, encodeFunctionData, getAddress } from "viem";
import { type SwapPathStep, swapIntents } from "../../schema";
import { commitmentOf, SWAP_COMMITMENT_TAG } from "../../sdk/src/commitments";
import { screenAddresses } from "../compliance";
import { BPS_PER_UNIT } from "../kernel/basis-points";
import { erc20Abi, mentoBrokerAbi, mentoRouterAbi } from "../kernel/chain/abis";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { constantUnits, groupedDecimal, mulDivDown, TOKEN_DECIMALS, type TokenSymbol } from "../kernel/money";
import { ProviderFailure } from "../kernel/provider-failure";
import type { PartnerContext } from "../tenancy/caller";
import type { SwapServices } from "./context";
import { hopsOf, SWAP_AMOUNT_BOUNDS, SWAP_INTENT_TTL_MS } from "./pairs";
import { pathView, swapView } from "./swap-view";

export interface SwapRequest {
  wallet: `0x${string}`;
  tokenIn: TokenSymbol;
  tokenOut: TokenSymbol;
  amountIn: bigint;
  slippageBps: number;
}

/**
 * Prepares a swap the wallet signs: one transaction along the Mento path (swapCall), priced hop by hop
 * with the Broker's getAmountOut and checked against its trading limits, with the least output the
 * wallet accepts; and the ERC-20 approval first when the wallet's allowance to the target is short.
 */
export async function prepareSwap(ctx: PartnerContext<SwapServices>, request: SwapRequest) {
  const hops = hopsOf(request.tokenIn, request.tokenOut);
  if (!hops) throw new ApiError("UNSUPPORTED_PAIR", { detail: `(${request.tokenIn} → ${request.tokenOut})` });
  assertAmountInBounds(request.tokenIn, request.amountIn);
  const chain = swapChain(ctx);
  const tokenAddress = (symbol: TokenSymbol) => tokenOn(chain, symbol);
  // The wallet that will sign: never prepared for a listed one.
  await screenAddresses(ctx, [{ address: request.wallet, field: "body.wallet" }], [chain], "SWAP");

  const path: SwapPathStep[] = [];
  let amount = request.amountIn;
  for (const [from, to] of hops) {
    const quote = await quoteHop(ctx, tokenAddress(from), tokenAddress(to), amount);
    path.push({
      exchangeProvider: getAddress(quote.exchangeProvider),
      exchangeId: quote.exchangeId,
      assetIn: tokenAddress(from),
      assetOut: tokenAddress(to),
    });
    amount = quote.amountOut;
  }
  const expectedAmountOut = amount;
  const minAmountOut = mulDivDown(
    expectedAmountOut,
    BPS_PER_UNIT - BigInt(request.slippageBps),
    BPS_PER_UNIT,
  );
  const id = newId("si", ctx.clock);
  const { target, calldata } = swapCall(chain, path, request.amountIn, minAmountOut, id);
  const allowance = await chain.client
    .readContract({
      address: tokenAddress(request.tokenIn),
      abi: erc20Abi,
      functionName: "allowance",
      args: [request.wallet, target],
    })
    .catch(() => {
      throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(the chain did not answer)" });
    });

  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(swapIntents)
    .values({
      id,
      organizationId: ctx.caller.organizationId,
      integrationId: ctx.caller.integrationId,
      wallet: request.wallet,
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      amountIn: request.amountIn,
      expectedAmountOut,
      minAmountOut,
      slippageBps: request.slippageBps,
      path,
      chainId: chain.chainId,
      target,
      calldata,
      status: "prepared",
      createdAt: now,
      expiresAt: new Date(now.getTime() + SWAP_INTENT_TTL_MS),
    })
    .returning();
  if (!row) throw new Error("the swap intent was not recorded");
  const tokenInAddress = tokenAddress(request.tokenIn);
  return {
    intentId: row.id,
    expiresAt: row.expiresAt.toISOString(),
    quote: {
      amountIn: request.amountIn.toString(),
      expectedAmountOut: expectedAmountOut.toString(),
      minAmountOut: minAmountOut.toString(),
      slippageBps: request.slippageBps,
      path: pathView(path),
    },
    transaction: {
      chainId: chain.chainId,
      target,
      calldata,
      token: tokenInAddress,
      amount: request.amountIn.toString(),
      value: "0" as const,
    },
    ...(allowance < request.amountIn
      ? {
          approval: {
            chainId: chain.chainId,
            target: tokenInAddress,
            calldata: encodeFunctionData({
              abi: erc20Abi,
              functionName: "approve",
              args: [target, request.amountIn],
            }),
            value: "0" as const,
          },
        }
      : {}),
    swap: swapView(row),
  };
}

/** The destination chain with Mento's broker and router: where swaps run. */
export function swapChain(ctx: Pick<ServiceContext, "chains">): ConfiguredChain {
  const chain = ctx.chains.byRole("destination");
  if (!chain?.contracts.mentoRouter || !chain.contracts.broker) {
    throw new ApiError("ROUTE_UNAVAILABLE", { detail: "(Mento is not configured on the destination chain)" });
  }
  return chain;
}

/** INVALID_AMOUNT unless `amountIn` is within its token's bounds (SWAP_AMOUNT_BOUNDS). */
function assertAmountInBounds(token: TokenSymbol, amountIn: bigint): void {
  const { min, max } = SWAP_AMOUNT_BOUNDS[token];
  const decimals = TOKEN_DECIMALS[token];
  if (amountIn >= constantUnits(min, decimals) && amountIn <= constantUnits(max, decimals)) return;
  const range = `${groupedDecimal(min)} and ${groupedDecimal(max)} ${token}`;
  throw new ApiError("INVALID_AMOUNT", {
    detail: `(amountIn is in ${token}'s atomic units, between ${range})`,
    problems: [{ field: "body.amountIn", code: "INVALID_AMOUNT", problem: `must be between ${range}` }],
  });
}

/**
 * The one transaction: the router's swapExactTokensForTokens along a multi-hop path, or, for one
 * hop, the Broker's swapIn itself (the deployed MentoRouter refuses a path shorter than two steps),
 * followed by the intent's 32-byte commitment. Solidity's decoding ignores bytes after the
 * arguments, so the swap runs the same, and the transaction proves which intent it executes.
 */
function swapCall(
  chain: ConfiguredChain,
  path: SwapPathStep[],
  amountIn: bigint,
  minAmountOut: bigint,
  intentId: string,
) {
  const [only] = path;
  const call =
    path.length === 1 && only
      ? {
          target: getAddress(chain.contracts.broker as `0x${string}`),
          calldata: encodeFunctionData({
            abi: mentoBrokerAbi,
            functionName: "swapIn",
            args: [
              only.exchangeProvider,
              only.exchangeId,
              only.assetIn,
              only.assetOut,
              amountIn,
              minAmountOut,
            ],
          }),
        }
      : {
          target: getAddress(chain.contracts.mentoRouter as `0x${string}`),
          calldata: encodeFunctionData({
            abi: mentoRouterAbi,
            functionName: "swapExactTokensForTokens",
            args: [amountIn, minAmountOut, path],
          }),
        };
  return {
    target: call.target,
    calldata: concatHex([call.calldata, commitmentOf(SWAP_COMMITMENT_TAG, intentId)]),
  };
}

function tokenOn(chain: ConfiguredChain, symbol: TokenSymbol): `0x${string}` {
  const key = ({ USDC: "usdc", USDT: "usdt", USDm: "usdm", COPm: "copm" } as const)[symbol];
  const address = chain.contracts[key];
  if (!address)
    throw new ApiError("ROUTE_UNAVAILABLE", { detail: `(${symbol} is not configured on ${chain.name})` });
  return getAddress(address);
}

async function quoteHop(
  ctx: PartnerContext<SwapServices>,
  tokenIn: `0x${string}`,
  tokenOut: `0x${string}`,
  amountIn: bigint,
) {
  try {
    return await ctx.providers.pricing.exchange.quoteExchange({ tokenIn, tokenOut, amountIn });
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    if (error.kind === "capacity_exceeded" || error.kind === "trading_halted")
      throw new ApiError("MENTO_CAPACITY_EXCEEDED");
    if (error.kind === "no_route") throw new ApiError("ROUTE_UNAVAILABLE");
    throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(Mento did not answer)" });
  }
}
