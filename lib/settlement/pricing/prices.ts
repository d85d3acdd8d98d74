import type { ChainRegistry, ConfiguredChain } from "../../kernel/chain/registry";
import { startingChains } from "../../kernel/chain/source-chains";
import { ApiError } from "../../kernel/errors/api-error";
import { ROUTE_SLIPPAGE_BPS } from "../limits";
import type { PricingProviders } from "./ports";
import { withProviderErrors } from "./provider-errors";

/** The three chains a settlement crosses, with the contracts each leg needs. */
export interface SettlementChains {
  source: ConfiguredChain & {
    cctpDomain: number;
    contracts: { usdc: `0x${string}`; tokenMessenger: `0x${string}` };
  };
  intermediate: ConfiguredChain & { cctpDomain: number; contracts: { usdc: `0x${string}` } };
  destination: ConfiguredChain & { contracts: { usdm: `0x${string}`; copm: `0x${string}` } };
}

/**
 * Whether the settlement starts with USDC already on the intermediate chain: a transfer to the
 * settlement account, no CCTP (docs/settlement.md, "USDC already on the intermediate chain").
 */
export function startsOnIntermediate(chains: SettlementChains): boolean {
  return chains.source.chainId === chains.intermediate.chainId;
}

/**
 * The chains of a settlement from `sourceChainId` (the quote's or order's; the default source chain
 * when none is named, as on quotes made before sources could be chosen). A chain the profile does
 * not have at all is ROUTE_UNAVAILABLE.
 */
export function settlementChains(
  chains: Pick<ChainRegistry, "byRole" | "sources" | "known">,
  stage: string,
  sourceChainId: number | null | undefined,
): SettlementChains {
  // A source chain no longer served is still known to its orders: the legs that read it fail (and
  // retry) as on an unreachable RPC, and the legs after the mint go on without it.
  const source =
    sourceChainId === null || sourceChainId === undefined
      ? chains.byRole("source")
      : (startingChains(chains).find((chain) => chain.chainId === sourceChainId) ??
        chains.known(sourceChainId));
  const intermediate = chains.byRole("intermediate");
  const destination = chains.byRole("destination");
  if (
    !source?.contracts.usdc ||
    !source.contracts.tokenMessenger ||
    source.cctpDomain === undefined ||
    !intermediate?.contracts.usdc ||
    intermediate.cctpDomain === undefined ||
    !destination?.contracts.usdm ||
    !destination.contracts.copm
  ) {
    throw new ApiError("ROUTE_UNAVAILABLE", {
      stage,
      detail: "(the chains of the route are not configured)",
    });
  }
  return { source, intermediate, destination } as SettlementChains;
}

export interface BridgePrice {
  provider: string;
  tool: string;
  expectedUsdm: bigint;
  expectedCopm: bigint;
}

/** USDC on the intermediate chain → USDm on the destination (aggregator) → COPm (Mento). */
export async function priceBridge(
  pricing: PricingProviders,
  chains: SettlementChains,
  settlementAccount: `0x${string}`,
  routeInputUsdc: bigint,
  stage: string,
): Promise<BridgePrice> {
  return withProviderErrors(async () => {
    const route = await pricing.bridge.quoteBridge({
      fromChainId: chains.intermediate.chainId,
      toChainId: chains.destination.chainId,
      fromToken: chains.intermediate.contracts.usdc,
      toToken: chains.destination.contracts.usdm,
      fromAmount: routeInputUsdc,
      fromAddress: settlementAccount,
      toAddress: settlementAccount,
      slippageBps: Number(ROUTE_SLIPPAGE_BPS),
    });
    const exchange = await pricing.exchange.quoteExchange({
      tokenIn: chains.destination.contracts.usdm,
      tokenOut: chains.destination.contracts.copm,
      amountIn: route.toAmount,
    });
    return {
      provider: route.provider,
      tool: route.tool,
      expectedUsdm: route.toAmount,
      expectedCopm: exchange.amountOut,
    };
  }, stage);
}
