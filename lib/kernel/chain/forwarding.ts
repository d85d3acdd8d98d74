import { concatHex, type Hex, padHex, size, sliceHex, stringToHex, toHex } from "viem";
import { commitmentOf } from "../../../sdk/src/commitments";

/**
 * The 32 bytes Circle reserves at the start of hook data to ask its Forwarding Service to submit the
 * destination mint: the ASCII magic "cctp-forward" right-padded to 24 bytes, a 4-byte version 0 and
 * a 4-byte length 0 of additional Circle hook data. Developer-defined data may follow from byte 32.
 */
export const FORWARDING_HOOK_DATA: Hex = concatHex([
  padHex(stringToHex("cctp-forward"), { size: 24, dir: "right" }),
  toHex(0, { size: 4 }),
  toHex(0, { size: 4 }),
]);

/** Domain separation for the order commitment, versioned so its formula can change without ambiguity. */
const ORDER_COMMITMENT_TAG = "copm-settlement-order/v1";

/**
 * What binds a burn to one settlement order on chain:
 * `keccak256(abi.encode(string "copm-settlement-order/v1", string orderId))`. A partner can
 * recompute it from the order id alone.
 */
export function orderCommitment(orderId: string): Hex {
  return commitmentOf(ORDER_COMMITMENT_TAG, orderId);
}

/** The hook data of an order's burn: the forwarding header, then the order's 32-byte commitment. */
export function orderHookData(orderId: string): Hex {
  return hookDataOf(orderCommitment(orderId));
}

/** A burn's hook data for a commitment already made: the forwarding header, then the commitment. */
export function hookDataOf(commitment: Hex): Hex {
  return concatHex([FORWARDING_HOOK_DATA, commitment]);
}

/** Domain separation for a return's commitment: the burn that sends an order's USDC back to its user. */
const RETURN_COMMITMENT_TAG = "copm-settlement-return/v1";

/**
 * What binds a return burn to its order: `keccak256(abi.encode(string "copm-settlement-return/v1",
 * string orderId))`, after the forwarding header, as an order's own burn carries its commitment.
 */
export function returnHookData(orderId: string): Hex {
  return concatHex([FORWARDING_HOOK_DATA, returnCommitment(orderId)]);
}

/** A return's commitment alone: the memo of its way back from the destination chain, where a route can carry one. */
export function returnCommitment(orderId: string): Hex {
  return commitmentOf(RETURN_COMMITMENT_TAG, orderId);
}

/** Domain separation for the commitment of an unclaimed mint's return to its depositor. */
const MINT_RETURN_COMMITMENT_TAG = "copm-settlement-mint-return/v1";

/**
 * The hook data of an unclaimed mint's return burn: the forwarding header, then
 * `keccak256(abi.encode(string "copm-settlement-mint-return/v1", string mintId))`.
 */
export function mintReturnHookData(mintId: string): Hex {
  return concatHex([FORWARDING_HOOK_DATA, commitmentOf(MINT_RETURN_COMMITMENT_TAG, mintId)]);
}

/** The commitment an order's burn carries after the forwarding header, if the hook data has one. */
export function hookCommitment(hookData: Hex): Hex | undefined {
  if (!asksForwarding(hookData) || size(hookData) < 64) return undefined;
  return sliceHex(hookData, 32, 64).toLowerCase() as Hex;
}

/** Whether hook data asks Circle to forward the mint (whatever custom data follows the header). */
export function asksForwarding(hookData: Hex): boolean {
  return hookData.toLowerCase().startsWith(FORWARDING_HOOK_DATA.toLowerCase());
}

/** CCTP carries recipients as bytes32: an EVM address left-padded with 12 zero bytes. */
export function addressToBytes32(address: Hex): Hex {
  return padHex(address, { size: 32 }).toLowerCase() as Hex;
}
