import { getAddress, isAddress, zeroAddress } from "viem";

/**
 * An EVM address as a user may type it: 0x + 40 hex digits, all one case or with a valid EIP-55
 * checksum when mixed, and not the zero address (money sent there is gone). Checksummed on return.
 */
export function parseEvmAddress(candidate: string): `0x${string}` | undefined {
  if (!isAddress(candidate, { strict: true })) return undefined;
  const address = getAddress(candidate);
  return address === zeroAddress ? undefined : address;
}

export const EVM_ADDRESS_RULE =
  "must be an EVM address (0x + 40 hex digits, a valid checksum when mixed-case), not the zero address";
