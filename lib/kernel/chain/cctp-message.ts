import { encodePacked, type Hex, hexToBigInt, hexToNumber, isHex, padHex, size, sliceHex } from "viem";

/** Circle's MessageV2 and BurnMessageV2 versions on every CCTP v2 chain (circlefin/evm-cctp-contracts). */
export const CCTP_MESSAGE_VERSION = 1;
const CCTP_BURN_MESSAGE_VERSION = 1;

/** A CCTP v2 burn message as Iris attests it: the MessageV2 header and its BurnMessageV2 body. */
export interface CctpBurnMessage {
  sourceDomain: number;
  destinationDomain: number;
  /** Circle's 32-byte nonce (Iris's eventNonce; MessageReceived's `nonce`). */
  nonce: Hex;
  /** The source TokenMessengerV2, as bytes32. */
  sender: Hex;
  /** The destination TokenMessengerV2, as bytes32. */
  recipient: Hex;
  /** Zero: anyone may relay it. */
  destinationCaller: Hex;
  minFinalityThreshold: number;
  finalityThresholdExecuted: number;
  burnToken: Hex;
  mintRecipient: Hex;
  amount: bigint;
  messageSender: Hex;
  maxFee: bigint;
  feeExecuted: bigint;
  expirationBlock: bigint;
  hookData: Hex;
}

// Byte offsets of Circle's MessageV2 and BurnMessageV2 (docs/domain-facts.md).
const BODY = 148;
const BURN_HOOK_DATA = 228;

/** The bytes Circle's attester signs, in Circle's packed layout. */
export function encodeCctpBurnMessage(message: CctpBurnMessage): Hex {
  const body = encodePacked(
    ["uint32", "bytes32", "bytes32", "uint256", "bytes32", "uint256", "uint256", "uint256", "bytes"],
    [
      CCTP_BURN_MESSAGE_VERSION,
      word(message.burnToken),
      word(message.mintRecipient),
      message.amount,
      word(message.messageSender),
      message.maxFee,
      message.feeExecuted,
      message.expirationBlock,
      message.hookData,
    ],
  );
  return encodePacked(
    ["uint32", "uint32", "uint32", "bytes32", "bytes32", "bytes32", "bytes32", "uint32", "uint32", "bytes"],
    [
      CCTP_MESSAGE_VERSION,
      message.sourceDomain,
      message.destinationDomain,
      message.nonce,
      word(message.sender),
      word(message.recipient),
      word(message.destinationCaller),
      message.minFinalityThreshold,
      message.finalityThresholdExecuted,
      body,
    ],
  );
}

/** The BurnMessageV2 body's fields (what MessageReceived logs as `messageBody`). */
export type CctpBurnBody = Pick<
  CctpBurnMessage,
  | "burnToken"
  | "mintRecipient"
  | "amount"
  | "messageSender"
  | "maxFee"
  | "feeExecuted"
  | "expirationBlock"
  | "hookData"
>;

/**
 * Reads a CCTP v2 burn message; undefined for bytes that are not one (too short, another version),
 * so a message from an untrusted answer is checked before anything relies on it.
 */
export function decodeCctpBurnMessage(message: Hex): CctpBurnMessage | undefined {
  if (!isHexBytes(message) || size(message) < BODY) return undefined;
  const uint32At = (offset: number) => hexToNumber(sliceHex(message, offset, offset + 4));
  const wordAt = (offset: number) => sliceHex(message, offset, offset + 32);
  if (uint32At(0) !== CCTP_MESSAGE_VERSION) return undefined;
  const body = decodeCctpBurnBody(sliceHex(message, BODY));
  return (
    body && {
      sourceDomain: uint32At(4),
      destinationDomain: uint32At(8),
      nonce: wordAt(12),
      sender: wordAt(44),
      recipient: wordAt(76),
      destinationCaller: wordAt(108),
      minFinalityThreshold: uint32At(140),
      finalityThresholdExecuted: uint32At(144),
      ...body,
    }
  );
}

/** Reads a BurnMessageV2 body; undefined for bytes that are not one. */
export function decodeCctpBurnBody(body: Hex): CctpBurnBody | undefined {
  if (!isHexBytes(body) || size(body) < BURN_HOOK_DATA) return undefined;
  const wordAt = (offset: number) => sliceHex(body, offset, offset + 32);
  const uintAt = (offset: number) => hexToBigInt(wordAt(offset));
  if (hexToNumber(sliceHex(body, 0, 4)) !== CCTP_BURN_MESSAGE_VERSION) return undefined;
  return {
    burnToken: wordAt(4),
    mintRecipient: wordAt(36),
    amount: uintAt(68),
    messageSender: wordAt(100),
    maxFee: uintAt(132),
    feeExecuted: uintAt(164),
    expirationBlock: uintAt(196),
    hookData: size(body) > BURN_HOOK_DATA ? sliceHex(body, BURN_HOOK_DATA) : "0x",
  };
}

function isHexBytes(value: Hex): boolean {
  return isHex(value, { strict: true }) && value.length % 2 === 0;
}

function word(value: Hex): Hex {
  return padHex(value, { size: 32 });
}
