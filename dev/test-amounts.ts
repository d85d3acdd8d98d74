import { USDC_DECIMALS } from "../lib/settlement";

/**
 * The sandbox's test values, as Stripe's test card numbers: the cents of a settlement's
 * `sendAmountUsdc` choose how the local stack's Circle (dev/circle) and aggregator (dev/aggregator),
 * and through the aggregator Mento's market, behave for that order (docs/sandbox.md, "Failures on
 * demand"). Only those local services read them, from the chain; the service never does, in any
 * mode. Any other cents behave normally.
 */
const SANDBOX_OUTCOMES = {
  71: "forward-fails",
  72: "fee-above-max",
  73: "late-attestation",
  74: "route-refunds",
  75: "route-partial",
  76: "trading-limit",
  77: "below-floor",
  78: "route-fails-refunded",
  79: "route-fails-late-refund",
  80: "route-partial-usdt",
  81: "breaker-trips",
  82: "attestation-expired",
  83: "route-partial-other",
} as const;

export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[keyof typeof SANDBOX_OUTCOMES] | "normal";

const CENT = 10n ** BigInt(USDC_DECIMALS - 2);

/** The outcome asked for by a principal in USDC base units: its cents, whatever the digits below. */
export function sandboxOutcomeOf(principalUsdc: bigint): SandboxOutcome {
  if (principalUsdc <= 0n) return "normal";
  const cents = Number((principalUsdc / CENT) % 100n);
  return SANDBOX_OUTCOMES[cents as keyof typeof SANDBOX_OUTCOMES] ?? "normal";
}

/**
 * The principal of a settlement burn as the chain shows it: the burned amount less its `maxFee`,
 * which the burn plan sets to the quote's upfront fee, so it is the order's `sendAmountUsdc`.
 */
export function principalOfBurn(amount: bigint, maxFee: bigint): bigint {
  return amount > maxFee ? amount - maxFee : 0n;
}
