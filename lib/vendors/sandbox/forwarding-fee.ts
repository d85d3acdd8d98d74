import { bpsTextAsFraction } from "../../kernel/basis-points";
import { ceilFraction } from "../../kernel/decimal-fraction";
import { SANDBOX_FAST_FEE_BPS, SANDBOX_FORWARD_FEE_USDC } from "./fixed-fees";

/**
 * What the sandbox's Circle keeps of a forwarded burn of `amount` USDC base units: the Fast fee the
 * sandbox quotes (1 bps, rounded up) plus the Forwarding Service fee (0.2 USDC), never more than the
 * burn's `maxFee`, as Circle never takes more than the burner allowed. The figures are the ones
 * `fixedTransferFees` quotes, so a sandbox quote and a sandbox mint agree to the unit.
 */
export function sandboxForwardingFee(amount: bigint, maxFee: bigint): bigint {
  if (amount <= 0n) throw new RangeError(`amount must be positive, got ${amount}`);
  if (maxFee < 0n) throw new RangeError(`maxFee must not be negative, got ${maxFee}`);
  const fastFee = bpsTextAsFraction(SANDBOX_FAST_FEE_BPS);
  if (!fastFee) throw new Error(`SANDBOX_FAST_FEE_BPS is not a fee: ${SANDBOX_FAST_FEE_BPS}`);
  const charged =
    ceilFraction({ numerator: amount * fastFee.numerator, denominator: fastFee.denominator }) +
    SANDBOX_FORWARD_FEE_USDC;
  return charged < maxFee ? charged : maxFee;
}
