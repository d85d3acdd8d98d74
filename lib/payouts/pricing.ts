import { BPS_PER_UNIT } from "../kernel/basis-points";
import type { Fraction } from "../kernel/decimal-fraction";
import { groupedDecimal, mulDivDown, mulDivUp, TOKEN_DECIMALS } from "../kernel/money";
import type { BrebToken } from "./breb-provider";

/** The provider's developer fee on what it receives (spec 8), and the least it accepts: 2 USDC. */
export const PROVIDER_DEVELOPER_FEE_BPS = 50n;
const PROVIDER_MINIMUM_USDC_UNITS = 2_000_000n;

export interface PayoutPriceInput {
  token: BrebToken;
  /** Whole pesos the recipient must receive. */
  destinationCop: bigint;
  /** The provider's COP per whole token. */
  copPerUnit: Fraction;
  /** The provider's COP per USD (1 USDC): for the minimum and the quote's display. */
  copPerUsd: Fraction;
  serviceFeeBps: bigint;
  /** The organization's own fee (0 to PARTNER_FEE_MAX_BPS). */
  partnerFeeBps: bigint;
}

export interface PayoutPrice {
  /** What the provider must receive so that, less its 0.5 %, the recipient gets destinationCop. */
  providerAmount: bigint;
  /** The provider's 0.5 % of providerAmount, rounded up: what it keeps. */
  providerDeveloperFee: bigint;
  /** The service's fee on providerAmount, rounded up. */
  serviceFee: bigint;
  /** The organization's own fee on providerAmount, rounded up. */
  partnerFee: bigint;
  /** providerAmount + serviceFee + partnerFee: what the user pays. */
  sourceAmount: bigint;
  /** The least providerAmount the provider takes, in this token (2 USDC, or its COPm equivalent rounded up). */
  providerMinimum: bigint;
}

/**
 * Prices a payout in the token's atomic units. Every division rounds against the service's loss:
 * providerAmount is the least n such that n less the provider's fee (⌈n × 0.5 %⌉, as the quote shows
 * it) is worth at least destinationCop at the provider's rate, so a provider that rounds its fee up
 * and the pesos down still pays destinationCop; serviceFee = ⌈providerAmount × bps / 10 000⌉, and
 * the organization's partnerFee likewise with its own bps.
 */
export function pricePayout(input: PayoutPriceInput): PayoutPrice {
  const scale = 10n ** BigInt(TOKEN_DECIMALS[input.token]);
  const keptPerUnit = BPS_PER_UNIT - PROVIDER_DEVELOPER_FEE_BPS;
  const owed = input.destinationCop * scale * input.copPerUnit.denominator;
  const providerFee = (n: bigint) => mulDivUp(n, PROVIDER_DEVELOPER_FEE_BPS, BPS_PER_UNIT);
  const covers = (n: bigint) => (n - providerFee(n)) * input.copPerUnit.numerator >= owed;
  // The exact-fee amount is a lower bound; the rounded-up fee may need a unit or two more.
  let providerAmount = mulDivUp(owed, BPS_PER_UNIT, input.copPerUnit.numerator * keptPerUnit);
  while (!covers(providerAmount)) providerAmount += 1n;
  const serviceFee = mulDivUp(providerAmount, input.serviceFeeBps, BPS_PER_UNIT);
  const partnerFee = mulDivUp(providerAmount, input.partnerFeeBps, BPS_PER_UNIT);
  return {
    providerAmount,
    providerDeveloperFee: providerFee(providerAmount),
    serviceFee,
    partnerFee,
    sourceAmount: providerAmount + serviceFee + partnerFee,
    providerMinimum: providerMinimumIn(input),
  };
}

/** 2 USDC in the token: for COPm, 2 × (COP per USD) / (COP per COPm), rounded up. */
function providerMinimumIn(input: PayoutPriceInput): bigint {
  if (input.token === "USDC") return PROVIDER_MINIMUM_USDC_UNITS;
  const scale = 10n ** BigInt(TOKEN_DECIMALS[input.token]);
  return mulDivUp(
    2n * scale * input.copPerUsd.numerator,
    input.copPerUnit.denominator,
    input.copPerUsd.denominator * input.copPerUnit.numerator,
  );
}

/** COP the recipient gets per whole source token, all fees in, to 6 places, rounded down. */
export function effectiveRate(destinationCop: bigint, sourceAmount: bigint, token: BrebToken): string {
  const micros = mulDivDown(destinationCop * 10n ** BigInt(TOKEN_DECIMALS[token]), 1_000_000n, sourceAmount);
  const whole = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** "1 USD = 3,912.45 COP": the USD rate the quote used, thousands separators, two decimals (half up). */
export function rateDisplay(copPerUsd: Fraction): string {
  const cents = (copPerUsd.numerator * 100n * 2n + copPerUsd.denominator) / (2n * copPerUsd.denominator);
  const whole = groupedDecimal((cents / 100n).toString());
  return `1 USD = ${whole}.${(cents % 100n).toString().padStart(2, "0")} COP`;
}
