import { encodeAbiParameters, type Hex, keccak256 } from "viem";

/**
 * What binds a transaction on chain to one resource of the service:
 * `keccak256(abi.encode(string tag, string id))`, the tag versioned so a formula can change without
 * ambiguity. The id is random and unknown until the service answers, so no transaction made before
 * the resource existed can carry it, and a partner can recompute it from the id alone.
 */
export function commitmentOf(tag: string, id: string): Hex {
  return keccak256(encodeAbiParameters([{ type: "string" }, { type: "string" }], [tag, id]));
}

/** The tag of a swap intent's commitment: the last 32 bytes of its transaction's calldata. */
export const SWAP_COMMITMENT_TAG = "copm-swap-intent/v1";
