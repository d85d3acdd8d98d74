import { bpsTextAsFraction } from "../../kernel/basis-points";
import { FINALITY_FAST } from "../../kernel/chain/abis";
import { ceilFraction } from "../../kernel/decimal-fraction";
import { SANDBOX_FAST_FEE_BPS, SANDBOX_FORWARD_FEE_USDC, SANDBOX_STANDARD_FEE_BPS } from "./fixed-fees";

/**
 * What the sandbox's Circle keeps of a forwarded burn of `amount` USDC base units: the fee the
 * sandbox quotes for the burn's finality (Fast 1 bps rounded up, Standard 0) plus the Forwarding
 * Service fee (0.2 USDC), never more than the burn's `maxFee`, as Circle never takes more than the
 * burner allowed. The figures are the ones `fixedTransferFees` quotes, so a sandbox quote and a
 * sandbox mint agree to the unit.
 */
export function sandboxForwardingFee(amount: bigint, maxFee: bigint, finalityThreshold: number): bigint {
  if (amount <= 0n) throw new RangeError(`amount must be positive, got ${amount}`);
  if (maxFee < 0n) throw new RangeError(`maxFee must not be negative, got ${maxFee}`);
  const bps = finalityThreshold === FINALITY_FAST ? SANDBOX_FAST_FEE_BPS : SANDBOX_STANDARD_FEE_BPS;
  const fee = bpsTextAsFraction(bps);
  if (!fee) throw new Error(`the sandbox fee is not a fee: ${bps}`);
  const charged =
    ceilFraction({ numerator: amount * fee.numerator, denominator: fee.denominator }) +
    SANDBOX_FORWARD_FEE_USDC;
  return charged < maxFee ? charged : maxFee;
}
