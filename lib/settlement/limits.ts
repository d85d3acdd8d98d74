/** Spec section 8, in the units the code computes with. */
export const MIN_SEND_USDC = 10_000_000n; // 10 USDC
export const MAX_SEND_USDC = 1_000_000_000n; // 1,000 USDC
export const QUOTE_LIFETIME_MS = 60_000;
/** The binding delivery floor is the expected COPm less this route slippage. */
export const ROUTE_SLIPPAGE_BPS = 300n;
/**
 * What a return's way back from the destination chain may cost at most, in basis points of the
 * USDm's worth in USDC: the route's 3% slippage and the aggregator's fees. A route whose minimum is
 * below that is not taken; the order waits, STUCK past its deadline, for the operator.
 */
export const RETURN_ROUTE_MAX_COST_BPS = 500n;
/** At order time the re-priced route may be at most this much worse than quoted. */
export const MAX_ROUTE_VARIANCE_BPS = 400n;
export const BPS = 10_000n;
/**
 * What the upfront fee adds to Circle's quoted fee, in basis points of it (20%: Circle advises a
 * 10–20% buffer on maxFee, since it fixes the fee at attestation). The burn's maxFee is the whole
 * upfront fee, so a fee that rose by up to this much still forwards; what Circle does not take stays
 * with the order in the settlement account (docs/settlement.md, "Fees").
 */
export const FEE_BUFFER_BPS = 2_000n;
export const USDC_DECIMALS = 6;
export const COPM_DECIMALS = 18;
/** Decimal places of the COP-per-USDC rates a quote shows. */
export const RATE_DECIMALS = 6;
