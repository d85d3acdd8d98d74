import { brebQuotes } from "../../schema";
import { parseDecimalFraction } from "../kernel/decimal-fraction";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { formatAmount, TOKEN_DECIMALS } from "../kernel/money";
import type { PartnerContext } from "../tenancy/caller";
import type { BrebToken, PayoutServices } from "./breb-provider";
import { payoutSetup } from "./create-payout";
import { effectiveRate, PROVIDER_DEVELOPER_FEE_BPS, pricePayout, rateDisplay } from "./pricing";
import { providerRates } from "./provider-rates";

/** The least a payout delivers (spec 8). */
const MIN_DESTINATION_COP = 4_000n;

type PayoutQuoteRow = typeof brebQuotes.$inferSelect;

export interface PayoutQuoteView {
  quoteId: string;
  fromToken: BrebToken;
  destinationCop: string;
  sourceAmount: string;
  providerAmount: string;
  effectiveRate: string;
  rate: string;
  display: string;
  fees: Array<{
    type: "service" | "provider_developer" | "partner";
    bps: number;
    amount: string;
    token: BrebToken;
    recipient: "fee_wallet" | "payout_provider" | "partner";
  }>;
  cached: boolean;
  createdAt: string;
  expiresAt: string;
}

/**
 * Prices a payout of `destinationCop` whole pesos from `token` at the provider's rate (cached for
 * BREB_RATE_CACHE_SECONDS) and keeps the quote for BREB_QUOTE_SECONDS. Refused below 4,000 COP, above
 * BREB_MAX_COP, or when the provider would receive less than 2 USDC's worth.
 */
export async function quotePayout(
  ctx: PartnerContext<PayoutServices>,
  input: { destinationCop: bigint; token: BrebToken },
): Promise<PayoutQuoteView> {
  if (input.destinationCop < MIN_DESTINATION_COP) {
    throw new ApiError("BELOW_MINIMUM", { detail: "(a payout delivers at least 4,000 COP)" });
  }
  if (input.destinationCop > BigInt(ctx.config.BREB_MAX_COP)) {
    throw new ApiError("ABOVE_MAXIMUM", {
      detail: `(a payout delivers at most ${BigInt(ctx.config.BREB_MAX_COP).toLocaleString("en-US")} COP)`,
    });
  }
  payoutSetup(ctx, input.token); // a quote this deployment could never pay out is refused up front
  const rates = await providerRates(ctx, input.token);
  const serviceFeeBps = BigInt(ctx.config.BREB_SERVICE_FEE_BPS);
  const price = pricePayout({
    ...input,
    copPerUnit: rates.copPerUnit,
    copPerUsd: rates.copPerUsd,
    serviceFeeBps,
    partnerFeeBps: BigInt(ctx.caller.organization.partnerFeeBps),
  });
  if (price.providerAmount < price.providerMinimum) {
    const decimals = TOKEN_DECIMALS[input.token];
    throw new ApiError("BELOW_MINIMUM", {
      detail: `(the payout provider takes at least ${formatAmount(price.providerMinimum, decimals)} ${input.token}; this payout would send it ${formatAmount(price.providerAmount, decimals)})`,
    });
  }
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(brebQuotes)
    .values({
      id: newId("bq", ctx.clock),
      organizationId: ctx.caller.organizationId,
      integrationId: ctx.caller.integrationId,
      token: input.token,
      destinationCop: input.destinationCop,
      copPerUnit: rates.copPerUnitText,
      copPerUsd: rates.copPerUsdText,
      providerAmount: price.providerAmount,
      providerDeveloperFee: price.providerDeveloperFee,
      serviceFee: price.serviceFee,
      sourceAmount: price.sourceAmount,
      serviceFeeBps: Number(serviceFeeBps),
      partnerFee: price.partnerFee,
      partnerFeeBps: ctx.caller.organization.partnerFeeBps,
      partnerFeeAddress: ctx.caller.organization.partnerFeeAddress,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ctx.config.BREB_QUOTE_SECONDS * 1000),
    })
    .returning();
  if (!row) throw new Error("the payout quote was not recorded");
  return payoutQuoteView(row, rates.cached);
}

/** The quote as answered; `cached` only means something in the answer that priced it. */
function payoutQuoteView(row: PayoutQuoteRow, cached: boolean): PayoutQuoteView {
  const token = row.token as BrebToken;
  const decimals = TOKEN_DECIMALS[token];
  const copPerUsd = rateFraction(row.copPerUsd);
  return {
    quoteId: row.id,
    fromToken: token,
    destinationCop: row.destinationCop.toString(),
    sourceAmount: formatAmount(row.sourceAmount, decimals),
    providerAmount: formatAmount(row.providerAmount, decimals),
    effectiveRate: effectiveRate(row.destinationCop, row.sourceAmount, token),
    rate: row.copPerUnit,
    display: rateDisplay(copPerUsd),
    fees: [
      {
        type: "service",
        bps: row.serviceFeeBps,
        amount: formatAmount(row.serviceFee, decimals),
        token,
        recipient: "fee_wallet",
      },
      {
        type: "provider_developer",
        bps: Number(PROVIDER_DEVELOPER_FEE_BPS),
        amount: formatAmount(row.providerDeveloperFee, decimals),
        token,
        recipient: "payout_provider",
      },
      // The organization's own fee, when it charges one (paid to its address in the deposit).
      ...(row.partnerFeeBps > 0
        ? [
            {
              type: "partner" as const,
              bps: row.partnerFeeBps,
              amount: formatAmount(row.partnerFee, decimals),
              token,
              recipient: "partner" as const,
            },
          ]
        : []),
    ],
    cached,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

function rateFraction(text: string) {
  const fraction = parseDecimalFraction(text);
  if (!fraction) throw new Error(`stored rate ${text} does not parse`);
  return fraction;
}
