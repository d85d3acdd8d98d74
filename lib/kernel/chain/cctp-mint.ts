import { type Hex, type Log, parseEventLogs } from "viem";
import { messageTransmitterV2Abi, tokenMessengerV2Abi } from "./abis";

/**
 * What one received CCTP message minted, read from its transaction's logs: the TokenMessengerV2's
 * MintAndWithdraw that its handler emitted, which comes after the previous MessageReceived of the
 * transmitter and before this one (Circle's MessageTransmitterV2 calls the recipient's handler,
 * then emits MessageReceived). Exactly one such mint, of USDC to the recipient, whose amount and fee
 * add up to the message's burned amount; otherwise the message minted nothing to the recipient (a
 * generic message whose body only looks like a burn, to a handler that is not the messenger).
 */
export function mintOfMessage(
  logs: readonly Log[],
  received: { logIndex: number },
  expected: { transmitter: Hex; messenger: Hex; usdc: Hex; recipient: Hex; burned: bigint },
): { amount: bigint; feeCollected: bigint } | undefined {
  const previous = parseEventLogs({
    abi: messageTransmitterV2Abi,
    eventName: "MessageReceived",
    logs: [...logs],
  })
    .filter(
      (log) =>
        log.address.toLowerCase() === expected.transmitter.toLowerCase() && log.logIndex < received.logIndex,
    )
    .reduce((last, log) => Math.max(last, log.logIndex), -1);
  const mints = parseEventLogs({
    abi: tokenMessengerV2Abi,
    eventName: "MintAndWithdraw",
    logs: [...logs],
  }).filter(
    (log) =>
      log.address.toLowerCase() === expected.messenger.toLowerCase() &&
      log.logIndex > previous &&
      log.logIndex < received.logIndex,
  );
  const [mint] = mints;
  if (
    mints.length !== 1 ||
    !mint ||
    mint.args.mintRecipient.toLowerCase() !== expected.recipient.toLowerCase() ||
    mint.args.mintToken.toLowerCase() !== expected.usdc.toLowerCase() ||
    mint.args.amount + mint.args.feeCollected !== expected.burned
  ) {
    return undefined;
  }
  return { amount: mint.args.amount, feeCollected: mint.args.feeCollected };
}
