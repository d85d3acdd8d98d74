import { bpsTextAsFraction } from "../../lib/kernel/basis-points";
import { FINALITY_FAST } from "../../lib/kernel/chain/abis";
import { ceilFraction } from "../../lib/kernel/decimal-fraction";

/**
 * The local Circle's fees, for every pair of domains: about what Circle charges from an EVM L2
 * (docs/domain-facts.md): a 1 bps Fast fee, 0 bps Standard, and 0.2 USDC for the Forwarding
 * Service. `GET /v2/burn/USDC/fees` answers them, and a forwarded mint takes exactly them, so a
 * quote and a mint agree to the unit.
 */
export interface LocalCircleFees {
  /** Basis points as decimal text, as Iris writes minimumFee ("1", "1.3"). */
  fastBps: string;
  standardBps: string;
  /** The Forwarding Service's fee in USDC base units (Iris's forwardFee, low = med = high). */
  forwardFeeUsdc: bigint;
}

export const DEFAULT_CIRCLE_FEES: LocalCircleFees = {
  fastBps: "1",
  standardBps: "0",
  forwardFeeUsdc: 200_000n,
};

/** Refuses figures that are no fees, when the service starts rather than at the first quote. */
export function checkedFees(fees: LocalCircleFees): LocalCircleFees {
  for (const [name, bps] of [
    ["fastBps", fees.fastBps],
    ["standardBps", fees.standardBps],
  ] as const) {
    if (!bpsTextAsFraction(bps)) throw new RangeError(`${name} must be a non-negative decimal, got "${bps}"`);
  }
  if (fees.forwardFeeUsdc < 0n)
    throw new RangeError(`forwardFeeUsdc must not be negative, got ${fees.forwardFeeUsdc}`);
  return fees;
}

/**
 * Iris's fee list for a pair of domains with `?forward=true`: one entry per finality threshold
 * (developers.circle.com/api-reference/cctp/all/get-burn-usdc-fees), the forwarding fee under both
 * spellings Circle's pages use (`med` in the guides, `medium` in the API reference).
 */
export function feeEntries(fees: LocalCircleFees, forward: boolean): unknown[] {
  const forwardFee = String(fees.forwardFeeUsdc);
  return [
    { finalityThreshold: 1000, minimumFee: Number(fees.fastBps) },
    { finalityThreshold: 2000, minimumFee: Number(fees.standardBps) },
  ].map((entry) =>
    forward
      ? { ...entry, forwardFee: { low: forwardFee, med: forwardFee, medium: forwardFee, high: forwardFee } }
      : entry,
  );
}

/**
 * What Circle keeps of a forwarded burn of `amount`: the fee for the burn's finality (rounded up)
 * plus the Forwarding Service fee when it forwards, never more than the burn's `maxFee`, as Circle
 * never takes more than the burner allowed.
 */
export function feeExecutedOf(
  fees: LocalCircleFees,
  burn: { amount: bigint; maxFee: bigint; minFinalityThreshold: number },
  forwarded: boolean,
): bigint {
  const bps = burn.minFinalityThreshold <= FINALITY_FAST ? fees.fastBps : fees.standardBps;
  const fraction = bpsTextAsFraction(bps);
  if (!fraction) throw new Error(`not a fee: ${bps}`);
  const charged =
    ceilFraction({ numerator: burn.amount * fraction.numerator, denominator: fraction.denominator }) +
    (forwarded ? fees.forwardFeeUsdc : 0n);
  return charged < burn.maxFee ? charged : burn.maxFee;
}
