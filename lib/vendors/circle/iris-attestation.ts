import { z } from "zod";
import { parseJsonKeepingNumberText } from "../../kernel/exact-json";
import { DEFAULT_PROVIDER_TIMEOUT_MS, ProviderFailure } from "../../kernel/provider-failure";
import type { Attestation, AttestationProvider, ForwardState } from "../../settlement/leg-ports";
import { excerpt, type FetchLike, getWithinDeadline, globalFetch } from "../common/http-get";

const PROVIDER = "circle-iris";

export interface IrisAttestationOptions {
  /** `https://iris-api.circle.com` (mainnet) or `https://iris-api-sandbox.circle.com` (testnets). */
  baseUrl: string;
  fetch?: FetchLike;
  timeoutMs?: number;
}

/**
 * Attestations from Circle's Iris API: `GET /v2/messages/{sourceDomain}?transactionHash=…` answers
 * `{ messages: [{ status, eventNonce, message, attestation, decodedMessage, delayReason, forwardState,
 * forwardTxHash, … }] }` (developers.circle.com/api-reference/cctp/all/get-messages-v2), one message
 * per burn of the transaction in log order. `status` is `pending_confirmations` until Circle attests,
 * then `complete`; a burn Iris has not indexed yet is HTTP 404, which is pending too. The message and
 * attestation are kept only when they are hex (Iris writes "PENDING" and "0x" before it attests).
 */
export function irisAttestation(options: IrisAttestationOptions): AttestationProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalFetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  return {
    async attestation({ sourceDomain, burnTxHash }) {
      if (!Number.isInteger(sourceDomain) || sourceDomain < 0) {
        throw new RangeError(`CCTP domain must be a whole number, got ${sourceDomain}`);
      }
      if (!TX_HASH.test(burnTxHash)) throw new RangeError(`not a transaction hash: ${burnTxHash}`);
      const query = new URLSearchParams({ transactionHash: burnTxHash });
      const answer = await getWithinDeadline(
        PROVIDER,
        fetchImpl,
        `${baseUrl}/v2/messages/${sourceDomain}?${query}`,
        { accept: "application/json" },
        timeoutMs,
      );
      if (answer.status === 404) return { status: "pending" };
      if (answer.status !== 200) {
        throw new ProviderFailure(
          "unavailable",
          PROVIDER,
          `Circle Iris answered HTTP ${answer.status} for burn ${burnTxHash}: ${excerpt(answer.body)}`,
        );
      }
      return attestationOf(answer.body);
    },
  };
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

const units = z
  .string()
  .regex(/^\d+$/)
  .transform((text) => BigInt(text));
const txHash = z.string().regex(TX_HASH) as unknown as z.ZodType<`0x${string}`>;
/** Hex of at least one byte, else nothing: the placeholders Iris writes before attesting. */
const bytesOrNothing = z
  .string()
  .nullish()
  .transform((text) => (text && /^0x(?:[0-9a-fA-F]{2})+$/.test(text) ? (text as `0x${string}`) : undefined));

/** Numbers arrive as the text Circle wrote (parseJsonKeepingNumberText); only the fields read are checked. */
const messagesSchema = z.object({
  messages: z.array(
    z.object({
      status: z.string(),
      eventNonce: z.string().nullish(),
      message: bytesOrNothing,
      attestation: bytesOrNothing,
      delayReason: z.string().nullish(),
      decodedMessage: z
        .object({ decodedMessageBody: z.object({ feeExecuted: units.nullish() }).nullish() })
        .nullish(),
      forwardState: z.string().nullish(),
      // Empty until the Forwarding Service has sent the mint.
      forwardTxHash: z.union([txHash, z.literal("")]).nullish(),
    }),
  ),
});

function attestationOf(body: string): Attestation {
  const parsed = messagesSchema.safeParse(parseJsonOrUndefined(body));
  if (!parsed.success) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `Circle Iris answered an unreadable message list: ${excerpt(body)}`,
      { cause: parsed.error },
    );
  }
  // A settlement burn is the only burn of its transaction, so its message is the first.
  const [message] = parsed.data.messages;
  if (!message) return { status: "pending" };

  const feeExecuted = message.decodedMessage?.decodedMessageBody?.feeExecuted;
  const forwardState = message.forwardState ? forwardStateOf(message.forwardState) : undefined;
  return {
    status: message.status === "complete" ? "complete" : "pending",
    ...(message.eventNonce ? { eventNonce: message.eventNonce } : {}),
    ...(message.message ? { message: message.message } : {}),
    ...(message.attestation ? { attestation: message.attestation } : {}),
    ...(message.delayReason ? { delayReason: message.delayReason } : {}),
    ...(message.forwardTxHash ? { forwardTxHash: message.forwardTxHash } : {}),
    ...(forwardState ? { forwardState } : {}),
    ...(feeExecuted === undefined || feeExecuted === null ? {} : { feeExecuted }),
  };
}

/**
 * Circle publishes no enum for forwardState; clients of Iris read PENDING, then CONFIRMED or
 * COMPLETE (or SUCCEEDED) once the mint is mined, and FAILED. Anything else is still pending.
 */
function forwardStateOf(text: string): ForwardState {
  const state = text.toUpperCase();
  if (state === "FAILED") return "failed";
  if (state === "CONFIRMED" || state === "COMPLETE" || state === "SUCCEEDED") return "confirmed";
  return "pending";
}

function parseJsonOrUndefined(body: string): unknown {
  try {
    return parseJsonKeepingNumberText(body);
  } catch {
    return undefined;
  }
}
