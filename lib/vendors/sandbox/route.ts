import { BPS_PER_UNIT, wholeBps } from "../../kernel/basis-points";
import type { ChainDescriptor } from "../../kernel/chain/profiles";
import { mulDivDown, rescale } from "../../kernel/money";
import { ProviderFailure } from "../../kernel/provider-failure";
import type { RouteProvider, RouteQuoteRequest } from "../../settlement/pricing-ports";

const PROVIDER = "sandbox-route";
const USDC_DECIMALS = 6;
const USDM_DECIMALS = 18;

/** What the sandbox aggregator keeps of every route, in basis points: the quote and the relayer agree. */
export const SANDBOX_ROUTE_COST_BPS = 10;

/**
 * USDm (18 decimals) the sandbox aggregator delivers for `fromAmount` USDC (6 decimals): one to one,
 * less `costBps`, rounded down. The sandbox route quotes it and the sandbox relayer pays it.
 */
export function sandboxRouteAmountOut(fromAmount: bigint, costBps: number = SANDBOX_ROUTE_COST_BPS): bigint {
  const keptBps = wholeBps(costBps, "costBps");
  return mulDivDown(rescale(fromAmount, USDC_DECIMALS, USDM_DECIMALS), BPS_PER_UNIT - keptBps, BPS_PER_UNIT);
}

/** One leg the sandbox relayer carries: USDC on one chain to USDm on another. */
export interface SandboxRouteLeg {
  fromChainId: number;
  usdc: `0x${string}`;
  toChainId: number;
  usdm: `0x${string}`;
}

export interface SandboxRouteOptions {
  /**
   * The legs this route serves; any other pair of chains or tokens has no route. Without legs it
   * takes any request between two different chains as USDC to USDm, and refuses only a same-chain
   * one: pass `sandboxRouteLegsOf(chains)` to have it refuse the tokens it does not carry.
   */
  legs?: readonly SandboxRouteLeg[];
  /** What the route keeps, in basis points of the amount (default 10). */
  costBps?: number;
  durationSeconds?: number;
}

/**
 * The sandbox aggregator: USDC is worth USDm one to one, rescaled from 6 to 18 decimals, less
 * `costBps`; the minimum allows the request's slippage. Both round down, so the quote never
 * promises more than the relayer delivers. There is no transactionRequest: the settlement account
 * calls the SandboxRouter itself and the sandbox relayer mints on the destination chain.
 */
export function sandboxRoute(options: SandboxRouteOptions = {}): RouteProvider {
  const costBps = options.costBps ?? SANDBOX_ROUTE_COST_BPS;
  // A bad figure is refused when the adapter is made, not at the first quote.
  wholeBps(costBps, "costBps");
  const durationSeconds = options.durationSeconds ?? 5;
  const legs = options.legs?.map((leg) => ({ ...leg, usdc: lower(leg.usdc), usdm: lower(leg.usdm) }));
  const serves = (request: RouteQuoteRequest) =>
    legs
      ? legs.some(
          (leg) =>
            leg.fromChainId === request.fromChainId &&
            leg.toChainId === request.toChainId &&
            leg.usdc === lower(request.fromToken) &&
            leg.usdm === lower(request.toToken),
        )
      : request.fromChainId !== request.toChainId;

  return {
    async quoteRoute(request) {
      const slippageBps = wholeBps(request.slippageBps, "slippageBps");
      if (request.fromAmount <= 0n)
        throw new RangeError(`fromAmount must be positive, got ${request.fromAmount}`);
      if (!serves(request)) {
        throw new ProviderFailure(
          "no_route",
          PROVIDER,
          `the sandbox routes no ${request.fromToken} on chain ${request.fromChainId} to ${request.toToken} on chain ${request.toChainId}`,
        );
      }

      const toAmount = sandboxRouteAmountOut(request.fromAmount, costBps);
      const toAmountMin = mulDivDown(toAmount, BPS_PER_UNIT - slippageBps, BPS_PER_UNIT);
      return {
        provider: PROVIDER,
        tool: "sandbox-router",
        fromAmount: request.fromAmount,
        toAmount,
        toAmountMin,
        executionDurationSeconds: durationSeconds,
      };
    },
  };
}

function lower(address: `0x${string}`): `0x${string}` {
  return address.toLowerCase() as `0x${string}`;
}

/**
 * The leg of a chain profile: USDC on the intermediate chain to USDm on the destination chain, when
 * both are known. The sandbox relayer carries exactly this.
 */
export function sandboxRouteLegsOf(chains: readonly ChainDescriptor[]): SandboxRouteLeg[] {
  const intermediate = chains.find((chain) => chain.role === "intermediate");
  const destination = chains.find((chain) => chain.role === "destination");
  const usdc = intermediate?.contracts.usdc;
  const usdm = destination?.contracts.usdm;
  if (!intermediate || !destination || !usdc || !usdm) return [];
  return [{ fromChainId: intermediate.chainId, usdc, toChainId: destination.chainId, usdm }];
}
