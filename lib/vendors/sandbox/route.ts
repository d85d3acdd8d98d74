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

/** A token's decimals on each side of a route: USDC's 6 to USDm's 18 unless a leg says otherwise. */
export interface RouteDecimals {
  from: number;
  to: number;
}

const USDC_TO_USDM: RouteDecimals = { from: USDC_DECIMALS, to: USDM_DECIMALS };

/**
 * What the sandbox aggregator delivers for `fromAmount`: one to one in value, rescaled between the
 * tokens' decimals (USDC's 6 to USDm's 18 by default), less `costBps`, rounded down. The sandbox
 * route quotes it and the sandbox relayer pays it.
 */
export function sandboxRouteAmountOut(
  fromAmount: bigint,
  costBps: number = SANDBOX_ROUTE_COST_BPS,
  decimals: RouteDecimals = USDC_TO_USDM,
): bigint {
  const keptBps = wholeBps(costBps, "costBps");
  return mulDivDown(rescale(fromAmount, decimals.from, decimals.to), BPS_PER_UNIT - keptBps, BPS_PER_UNIT);
}

/**
 * One leg the sandbox relayer carries: USDC on the intermediate chain to USDm on the destination
 * chain, and back (a return's way home).
 */
export interface SandboxRouteLeg {
  fromChainId: number;
  fromToken: `0x${string}`;
  toChainId: number;
  toToken: `0x${string}`;
  decimals: RouteDecimals;
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
 * The sandbox aggregator: USDC is worth USDm one to one (rescaled between their decimals), less
 * `costBps`; the minimum allows the request's slippage. Both round down, so the quote never
 * promises more than the relayer delivers. There is no transactionRequest: the settlement account
 * calls the SandboxRouter itself and the sandbox relayer mints on the other chain.
 */
export function sandboxRoute(options: SandboxRouteOptions = {}): RouteProvider {
  const costBps = options.costBps ?? SANDBOX_ROUTE_COST_BPS;
  // A bad figure is refused when the adapter is made, not at the first quote.
  wholeBps(costBps, "costBps");
  const durationSeconds = options.durationSeconds ?? 5;
  const legs = options.legs?.map((leg) => ({
    ...leg,
    fromToken: lower(leg.fromToken),
    toToken: lower(leg.toToken),
  }));
  const legOf = (request: RouteQuoteRequest) =>
    legs
      ? legs.find(
          (leg) =>
            leg.fromChainId === request.fromChainId &&
            leg.toChainId === request.toChainId &&
            leg.fromToken === lower(request.fromToken) &&
            leg.toToken === lower(request.toToken),
        )
      : request.fromChainId !== request.toChainId
        ? { decimals: USDC_TO_USDM }
        : undefined;

  return {
    async quoteRoute(request) {
      const slippageBps = wholeBps(request.slippageBps, "slippageBps");
      if (request.fromAmount <= 0n)
        throw new RangeError(`fromAmount must be positive, got ${request.fromAmount}`);
      const leg = legOf(request);
      if (!leg) {
        throw new ProviderFailure(
          "no_route",
          PROVIDER,
          `the sandbox routes no ${request.fromToken} on chain ${request.fromChainId} to ${request.toToken} on chain ${request.toChainId}`,
        );
      }

      const toAmount = sandboxRouteAmountOut(request.fromAmount, costBps, leg.decimals);
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
 * The legs of a chain profile, when its tokens are known: USDC on the intermediate chain to USDm on
 * the destination chain, and USDm back to USDC (a return from the destination chain). The sandbox
 * relayer carries exactly these.
 */
export function sandboxRouteLegsOf(chains: readonly ChainDescriptor[]): SandboxRouteLeg[] {
  const intermediate = chains.find((chain) => chain.role === "intermediate");
  const destination = chains.find((chain) => chain.role === "destination");
  const usdc = intermediate?.contracts.usdc;
  const usdm = destination?.contracts.usdm;
  if (!intermediate || !destination || !usdc || !usdm) return [];
  return [
    {
      fromChainId: intermediate.chainId,
      fromToken: usdc,
      toChainId: destination.chainId,
      toToken: usdm,
      decimals: USDC_TO_USDM,
    },
    {
      fromChainId: destination.chainId,
      fromToken: usdm,
      toChainId: intermediate.chainId,
      toToken: usdc,
      decimals: { from: USDM_DECIMALS, to: USDC_DECIMALS },
    },
  ];
}
