import { concatHex, type Hex, padHex, stringToHex, toHex } from "viem";

/**
 * Hook data asking Circle's Forwarding Service to submit the destination mint: the 24-byte ASCII
 * magic "cctp-forward" right-padded with zeros, a 4-byte version 0 and a 4-byte length 0.
 */
export const FORWARDING_HOOK_DATA: Hex = concatHex([
  padHex(stringToHex("cctp-forward"), { size: 24, dir: "right" }),
  toHex(0, { size: 4 }),
  toHex(0, { size: 4 }),
]);

/** CCTP carries recipients as bytes32: an EVM address left-padded with 12 zero bytes. */
export function addressToBytes32(address: Hex): Hex {
  return padHex(address, { size: 32 }).toLowerCase() as Hex;
}
