import { BaseError, ContractFunctionRevertedError } from "viem";
import { ProviderFailure } from "../provider-failure";

/** The revert reason when a contract call reverted, undefined when it failed any other way. */
export function revertReasonOf(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return undefined;
  return reverted.reason ?? reverted.shortMessage;
}

/** What a failed chain call says, in one line (viem's short message). */
export function chainErrorText(error: unknown): string {
  return error instanceof BaseError
    ? error.shortMessage
    : error instanceof Error
      ? error.message
      : String(error);
}

/** A failed chain read as a ProviderFailure: whatever it was, the chain did not answer usably. */
export function chainUnavailable(provider: string, error: unknown): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  const detail = chainErrorText(error);
  return new ProviderFailure("unavailable", provider, `${provider} could not read the chain: ${detail}`, {
    cause: error,
  });
}
