import { and, eq, gt } from "drizzle-orm";
import { brebRates } from "../../schema";
import { type Fraction, parseDecimalFraction } from "../kernel/decimal-fraction";
import { ApiError } from "../kernel/errors/api-error";
import { ProviderFailure } from "../kernel/provider-failure";
import type { BrebProvider, BrebToken, PayoutServices } from "./breb-provider";

/** The one payout provider's name in the rate cache (a second provider would add its own rows). */
const BREB_PROVIDER_NAME = "breb";

export interface ProviderRates {
  copPerUnit: Fraction;
  copPerUsd: Fraction;
  copPerUnitText: string;
  copPerUsdText: string;
  /** True when no rate had to be fetched for this quote: each was still fresh in the cache. */
  cached: boolean;
}

/** The configured payout provider, or PROVIDER_UNAVAILABLE when there is none. */
export function payoutProvider(ctx: PayoutServices): BrebProvider {
  const provider = ctx.providers.payouts.provider;
  if (!provider) throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(no payout provider is configured)" });
  return provider;
}

/** The token's rate and the USD rate (the same for USDC), each from the cache while fresh. */
export async function providerRates(ctx: PayoutServices, token: BrebToken): Promise<ProviderRates> {
  const unit = await rateOf(ctx, token);
  const usd = token === "USDC" ? unit : await rateOf(ctx, "USDC");
  return {
    copPerUnit: unit.fraction,
    copPerUsd: usd.fraction,
    copPerUnitText: unit.text,
    copPerUsdText: usd.text,
    cached: unit.cached && usd.cached,
  };
}

async function rateOf(
  ctx: PayoutServices,
  token: BrebToken,
): Promise<{ text: string; fraction: Fraction; cached: boolean }> {
  const now = ctx.clock.now();
  const freshAfter = new Date(now.getTime() - ctx.config.BREB_RATE_CACHE_SECONDS * 1000);
  const [fresh] = await ctx.db
    .select()
    .from(brebRates)
    .where(
      and(
        eq(brebRates.provider, BREB_PROVIDER_NAME),
        eq(brebRates.token, token),
        gt(brebRates.fetchedAt, freshAfter),
      ),
    );
  const cachedFraction = fresh ? positive(fresh.copPerUnit) : undefined;
  if (fresh && cachedFraction) return { text: fresh.copPerUnit, fraction: cachedFraction, cached: true };

  let text: string;
  try {
    text = (await payoutProvider(ctx).rate(token)).copPerUnit;
  } catch (error) {
    if (error instanceof ProviderFailure) {
      throw new ApiError("PROVIDER_UNAVAILABLE", {
        detail: "(the payout provider's rate could not be read)",
      });
    }
    throw error;
  }
  const fraction = positive(text);
  if (!fraction) {
    ctx.log.warn("payout provider answered an unusable rate", { token });
    throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(the payout provider's rate could not be read)" });
  }
  await ctx.db
    .insert(brebRates)
    .values({ provider: BREB_PROVIDER_NAME, token, copPerUnit: text, fetchedAt: now })
    .onConflictDoUpdate({
      target: [brebRates.provider, brebRates.token],
      set: { copPerUnit: text, fetchedAt: now },
    });
  return { text, fraction, cached: false };
}

function positive(text: string): Fraction | undefined {
  const fraction = parseDecimalFraction(text);
  return fraction && fraction.numerator > 0n ? fraction : undefined;
}
