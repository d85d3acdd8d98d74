import { z } from "zod";
import { parseJsonKeepingNumberText } from "../../kernel/exact-json";
import { DEFAULT_PROVIDER_TIMEOUT_MS, ProviderFailure } from "../../kernel/provider-failure";
import type { Attestation, AttestationProvider, ForwardState } from "../../settlement";
import {
  excerpt,
  type FetchLike,
  globalFetch,
  type HttpAnswer,
  requestWithinDeadline,
  retryAfterMsOf,
} from "../common/http-get";

const PROVIDER = "circle-iris";

/**
 * Circle blocks a caller for five minutes once it passes 35 requests a second, answering 429
 * (developers.circle.com/stablecoins/cctp-apis); it documents no Retry-After, so without one the
 * caller stays away that long.
 */
export const IRIS_BLOCK_MS = 5 * 60_000;

export interface IrisAttestationOptions {
  /** `https://iris-api.circle.com` (mainnet) or `https://iris-api-sandbox.circle.com` (testnets). */
  baseUrl: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** The clock a Retry-After date is read against. */
  now?: () => Date;
}

/**
 * Attestations from Circle's Iris API: `GET /v2/messages/{sourceDomain}?transactionHash=…` answers
 * `{ messages: [{ status, eventNonce, message, attestation, decodedMessage, delayReason, forwardState,
 * forwardTxHash, … }] }` (developers.circle.com/api-reference/cctp/all/get-messages-v2), one message
 * per burn of the transaction, by ascending log index. `status` is `pending_confirmations` until
 * Circle attests, then `complete`; a burn Iris has not indexed yet is HTTP 404, which is pending too.
 * The message and attestation are kept only when they are hex (Iris writes "0x" and "PENDING" before
 * it attests). Which message is an order's is the caller's to decide: the adapter reads them all.
 * `POST /v2/reattest/{nonce}` asks Circle to sign a message again (an expired Fast attestation).
 * A 429 is `unavailable` with the time to stay away (IRIS_BLOCK_MS unless Circle says otherwise).
 */
export function irisAttestation(options: IrisAttestationOptions): AttestationProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalFetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const call = (method: "GET" | "POST", path: string) =>
    requestWithinDeadline(
      PROVIDER,
      fetchImpl,
      `${baseUrl}${path}`,
      { method, headers: { accept: "application/json" } },
      timeoutMs,
    );

  return {
    async messages({ sourceDomain, burnTxHash }) {
      if (!Number.isInteger(sourceDomain) || sourceDomain < 0) {
        throw new RangeError(`CCTP domain must be a whole number, got ${sourceDomain}`);
      }
      if (!TX_HASH.test(burnTxHash)) throw new RangeError(`not a transaction hash: ${burnTxHash}`);
      const query = new URLSearchParams({ transactionHash: burnTxHash });
      const answer = await call("GET", `/v2/messages/${sourceDomain}?${query}`);
      if (answer.status === 404) return [];
      if (answer.status !== 200) throw refusal(answer, `burn ${burnTxHash}`, now());
      return attestationsOf(answer.body);
    },

    async reattest(nonce) {
      if (!NONCE.test(nonce)) throw new RangeError(`not a CCTP nonce: ${nonce}`);
      const answer = await call("POST", `/v2/reattest/${nonce}`);
      if (answer.status !== 200) throw refusal(answer, `re-attestation of ${nonce}`, now());
    },
  };
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;

/** Any status Iris should not have answered: unavailable, and a 429 says how long to stay away. */
function refusal(answer: HttpAnswer, what: string, now: Date): ProviderFailure {
  const limited = answer.status === 429;
  return new ProviderFailure(
    "unavailable",
    PROVIDER,
    `Circle Iris answered HTTP ${answer.status} for ${what}: ${excerpt(answer.body)}`,
    limited ? { retryAfterMs: retryAfterMsOf(answer, now, IRIS_BLOCK_MS) } : undefined,
  );
}

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
        .object({
          decodedMessageBody: z
            .object({
              feeExecuted: units.nullish(),
              amount: units.nullish(),
              mintRecipient: bytesOrNothing,
              hookData: bytesOrNothing,
            })
            .nullish(),
        })
        .nullish(),
      forwardState: z.string().nullish(),
      // Empty until the Forwarding Service has sent the mint.
      forwardTxHash: z.union([txHash, z.literal("")]).nullish(),
    }),
  ),
});

function attestationsOf(body: string): Attestation[] {
  const parsed = messagesSchema.safeParse(parseJsonOrUndefined(body));
  if (!parsed.success) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `Circle Iris answered an unreadable message list: ${excerpt(body)}`,
      { cause: parsed.error },
    );
  }
  return parsed.data.messages.map((message) => {
    const decoded = message.decodedMessage?.decodedMessageBody;
    const feeExecuted = decoded?.feeExecuted;
    const forwardState = message.forwardState ? forwardStateOf(message.forwardState) : undefined;
    const described = {
      ...(decoded?.amount !== undefined && decoded.amount !== null ? { amount: decoded.amount } : {}),
      ...(decoded?.mintRecipient ? { mintRecipient: decoded.mintRecipient } : {}),
      ...(decoded?.hookData ? { hookData: decoded.hookData } : {}),
    };
    return {
      status: message.status === "complete" ? "complete" : "pending",
      ...(message.eventNonce ? { eventNonce: message.eventNonce } : {}),
      ...(message.message ? { message: message.message } : {}),
      ...(message.attestation ? { attestation: message.attestation } : {}),
      ...(message.delayReason ? { delayReason: message.delayReason } : {}),
      ...(message.forwardTxHash ? { forwardTxHash: message.forwardTxHash } : {}),
      ...(forwardState ? { forwardState } : {}),
      ...(feeExecuted === undefined || feeExecuted === null ? {} : { feeExecuted }),
      ...(Object.keys(described).length > 0 ? { described } : {}),
    } satisfies Attestation;
  });
}

/**
 * Circle publishes no enum for forwardState; its own tooling reads PENDING, SENT, CONFIRMED,
 * COMPLETE and FAILED (circlefin/skills, use-cctpx observability), COMPLETE and FAILED being final.
 * A mint sent or mined is confirmed here (the service reads the chain itself before relying on it).
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
