import { BaseError, ContractFunctionRevertedError } from "viem";

/**
 * The Solidity revert reason inside a viem error ("Hook data is empty", "L0 Exceeded", …), or
 * undefined when the error is not a decoded revert.
 */
function revertReasonOf(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted.reason : undefined;
}

/** Awaits `attempt`, which must revert, and returns its reason; throws if it succeeds. */
export async function revertReason(attempt: Promise<unknown>): Promise<string | undefined> {
  try {
    await attempt;
  } catch (error) {
    return (
      revertReasonOf(error) ??
      `not a decoded revert: ${error instanceof Error ? error.message : String(error)}`
    );
  }
  throw new Error("expected a revert, but the call succeeded");
}
