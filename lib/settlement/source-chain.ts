import type { ConfiguredChain } from "../kernel/chain/registry";
import { findSourceChain, type SourceChainRef, startingChains } from "../kernel/chain/source-chains";
import { ApiError } from "../kernel/errors/api-error";
import { formatAmount } from "../kernel/money";
import type { SettlementContext } from "./context";
import { MAX_SEND_USDC, MIN_SEND_USDC, USDC_DECIMALS } from "./limits";
import { measuredSecondsToDelivered } from "./service-status";

/**
 * The chain a quote's USDC leaves: the one the request names, else the organization's default, else
 * the profile's (docs/settlement.md, "Source chains"). A chain this deployment does not serve is
 * UNSUPPORTED_SOURCE_CHAIN naming `sourceChain`, whether the request or the organization named it.
 */
export function quoteSourceChain(
  ctx: Pick<SettlementContext, "chains" | "caller">,
  ref: SourceChainRef | undefined,
  stage: string,
): ConfiguredChain {
  const preferred = ctx.caller.organization.defaultSourceChainId;
  const named = ref ?? preferred ?? undefined;
  if (named === undefined) {
    const chain = ctx.chains.byRole("source");
    if (!chain) throw new ApiError("ROUTE_UNAVAILABLE", { stage, detail: "(no source chain is configured)" });
    return chain;
  }
  const chain = findSourceChain(ctx.chains, named);
  if (chain) return chain;
  const problem =
    ref === undefined
      ? `is not given, and the organization's default source chain (${preferred}) is not served here`
      : "is not a source chain this service serves (by chain id or name)";
  throw new ApiError("UNSUPPORTED_SOURCE_CHAIN", {
    stage,
    problems: [{ field: "body.sourceChain", code: "UNSUPPORTED_SOURCE_CHAIN", problem }],
  });
}

/**
 * What follows the attestation until DELIVERED, in seconds, before the service has measured it (no
 * delivery in the last 24 hours): the forwarded mint, the aggregator's route to the destination
 * chain, the exchange and the delivery. Mainnet's from LI.FI's typical Base → Celo routes (about a
 * minute) and a few blocks each side; the local stack's from its vendors' pace
 * (dev/local-defaults.ts). An estimate, not a promise.
 */
const SECONDS_AFTER_ATTESTATION: Record<SettlementContext["chains"]["profile"], number> = {
  local: 10,
  testnet: 120,
  mainnet: 120,
};

/** One source chain as `GET /api/integrations/settlements/chains` lists it. */
export interface SourceChainView {
  chainId: number;
  name: string;
  cctpDomain: number;
  /** The chain the caller's quotes use when they name none. */
  isDefault: boolean;
  /** How the USDC leaves: a CCTP burn, or (on the intermediate chain) a transfer to the settlement account. */
  method: "cctp_burn" | "usdc_transfer";
  usdc: string;
  confirmations: number;
  transferSpeeds: ("standard" | "fast")[];
  typicalSecondsToAttestation: { standard: number | null; fast: number | null };
  typicalSecondsToDelivered: { standard: number | null; fast: number | null };
  minSendUsdc: string;
  maxSendUsdc: string;
}

/**
 * Every source chain this deployment serves, the caller's default first. The typical time to
 * DELIVERED is Circle's attestation time plus what the service measured after it over the last 24
 * hours (the status page's timelines), or the profile's estimate before any delivery.
 */
export async function listSourceChains(
  ctx: Pick<SettlementContext, "chains" | "caller" | "db" | "clock">,
): Promise<SourceChainView[]> {
  const preferred = ctx.caller.organization.defaultSourceChainId ?? ctx.chains.byRole("source")?.chainId;
  const measured = await measuredSecondsToDelivered(ctx);
  const estimate = SECONDS_AFTER_ATTESTATION[ctx.chains.profile];
  const views = startingChains(ctx.chains).flatMap((chain): SourceChainView[] => {
    if (chain.cctpDomain === undefined || !chain.contracts.usdc) return [];
    const transfer = chain.role === "intermediate";
    // A transfer waits on no attestation: its time is the route's alone.
    const standard = transfer ? 0 : (chain.attestation?.standardSeconds ?? null);
    const fast = transfer || !chain.attestation ? null : (chain.attestation.fastSeconds ?? null);
    const after = (transfer ? measured.DEPOSIT_VERIFIED : measured.ATTESTED) ?? measured.ATTESTED ?? estimate;
    return [
      {
        chainId: chain.chainId,
        name: chain.name,
        cctpDomain: chain.cctpDomain,
        isDefault: chain.chainId === preferred,
        method: transfer ? "usdc_transfer" : "cctp_burn",
        usdc: chain.contracts.usdc,
        confirmations: chain.confirmations,
        transferSpeeds:
          transfer || (fast === null && chain.attestation) ? ["standard"] : ["standard", "fast"],
        typicalSecondsToAttestation: { standard: transfer ? null : standard, fast },
        typicalSecondsToDelivered: {
          standard: standard === null ? null : standard + after,
          fast: fast === null ? null : fast + after,
        },
        minSendUsdc: formatAmount(MIN_SEND_USDC, USDC_DECIMALS),
        maxSendUsdc: formatAmount(MAX_SEND_USDC, USDC_DECIMALS),
      },
    ];
  });
  return views.sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
}
