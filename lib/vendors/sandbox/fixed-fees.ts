import { bpsTextAsFraction } from "../../kernel/basis-points";
import type { TransferFees, TransferFeesProvider } from "../../settlement/pricing-ports";

export interface FixedTransferFeesOptions {
  /** The Fast Transfer fee in basis points as decimal text, like Iris's minimumFee ("1", "1.3"). */
  fastFeeBps?: string;
  /** The Forwarding Service fee in USDC base units. */
  forwardFeeUsdc?: bigint;
}

/** About what Circle charges from an EVM L2: 1 bps Fast fee, 0.2 USDC to forward (docs/domain-facts.md). */
export const SANDBOX_FAST_FEE_BPS = "1";
export const SANDBOX_FORWARD_FEE_USDC = 200_000n;

/**
 * The sandbox's CCTP fees: the same figures for every pair of domains, since the sandbox messengers
 * charge whatever the quote says. Bad figures are refused when the adapter is made, not per quote.
 */
export function fixedTransferFees(options: FixedTransferFeesOptions = {}): TransferFeesProvider {
  const fastFeeBps = options.fastFeeBps ?? SANDBOX_FAST_FEE_BPS;
  const forwardFeeUsdc = options.forwardFeeUsdc ?? SANDBOX_FORWARD_FEE_USDC;
  const fastFee = bpsTextAsFraction(fastFeeBps);
  if (!fastFee) throw new RangeError(`fastFeeBps must be a non-negative decimal, got "${fastFeeBps}"`);
  if (forwardFeeUsdc < 0n) throw new RangeError(`forwardFeeUsdc must not be negative, got ${forwardFeeUsdc}`);

  const fees: TransferFees = { fastFee, forwardFeeUsdc };
  return {
    async transferFees() {
      return { fastFee: { ...fees.fastFee }, forwardFeeUsdc: fees.forwardFeeUsdc };
    },
  };
}
