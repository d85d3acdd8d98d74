import { bpsTextAsFraction } from "../../kernel/basis-points";
import { FINALITY_FAST } from "../../kernel/chain/abis";
import type { TransferFees, TransferFeesProvider } from "../../settlement/pricing-ports";

export interface FixedTransferFeesOptions {
  /** The Fast Transfer fee in basis points as decimal text, like Iris's minimumFee ("1", "1.3"). */
  fastFeeBps?: string;
  /** The Standard transfer's fee in basis points (Circle's is 0). */
  standardFeeBps?: string;
  /** The Forwarding Service fee in USDC base units. */
  forwardFeeUsdc?: bigint;
}

/**
 * About what Circle charges from an EVM L2: 1 bps Fast fee, 0 bps Standard, 0.2 USDC to forward
 * (docs/domain-facts.md).
 */
export const SANDBOX_FAST_FEE_BPS = "1";
export const SANDBOX_STANDARD_FEE_BPS = "0";
export const SANDBOX_FORWARD_FEE_USDC = 200_000n;

/**
 * The sandbox's CCTP fees: the same figures for every pair of domains, since the sandbox messengers
 * charge whatever the quote says. Bad figures are refused when the adapter is made, not per quote.
 */
export function fixedTransferFees(options: FixedTransferFeesOptions = {}): TransferFeesProvider {
  const fast = feeFraction("fastFeeBps", options.fastFeeBps ?? SANDBOX_FAST_FEE_BPS);
  const standard = feeFraction("standardFeeBps", options.standardFeeBps ?? SANDBOX_STANDARD_FEE_BPS);
  const forwardFeeUsdc = options.forwardFeeUsdc ?? SANDBOX_FORWARD_FEE_USDC;
  if (forwardFeeUsdc < 0n) throw new RangeError(`forwardFeeUsdc must not be negative, got ${forwardFeeUsdc}`);

  return {
    async transferFees({ finalityThreshold }) {
      const minimumFee = finalityThreshold === FINALITY_FAST ? fast : standard;
      return { minimumFee: { ...minimumFee }, forwardFeeUsdc };
    },
  };
}

function feeFraction(name: string, bps: string): TransferFees["minimumFee"] {
  const fraction = bpsTextAsFraction(bps);
  if (!fraction) throw new RangeError(`${name} must be a non-negative decimal, got "${bps}"`);
  return fraction;
}
