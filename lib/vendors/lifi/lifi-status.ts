import { z } from "zod";
import { ProviderFailure } from "../../kernel/provider-failure";
import type { BridgeExecutor, BridgeStatus } from "../../settlement";
import { excerpt } from "../common/http-get";
import { LIFI_PROVIDER, type LifiHttpOptions, lifiGetter, lifiRateLimited } from "./lifi-http";

const PROVIDER = LIFI_PROVIDER;

export type LifiStatusOptions = LifiHttpOptions;

/**
 * The aggregator leg as LI.FI reports it: `GET /v1/status?txHash&fromChain&toChain`
 * (docs.li.fi "Transaction Status Tracking") answers `status` in NOT_FOUND | INVALID | PENDING |
 * DONE | FAILED with a `substatus`, and `receiving` (txHash, amount, token) once delivered.
 * DONE + COMPLETED is done; DONE + PARTIAL delivered another token (partial); DONE + REFUNDED and
 * FAILED + REFUNDED (LI.FI's documentation lists it, "Tokens were refunded") gave the input back to
 * the sender (refunded), each with what `receiving` says arrived (the service reads the named
 * transaction's Transfer before booking any of it); a PARTIAL or REFUNDED answer that does not say
 * it readably, other FAILED and INVALID are failed. NOT_FOUND (not indexed yet, also as HTTP 404)
 * and PENDING (REFUND_IN_PROGRESS included) are pending. A 429 is unavailable, with LI.FI's wait.
 */
export function lifiStatus(options: LifiStatusOptions = {}): BridgeExecutor {
  const get = lifiGetter(options);
  const now = options.now ?? (() => new Date());
  return {
    async status({ txHash, fromChainId, toChainId }) {
      if (!TX_HASH.test(txHash)) throw new RangeError(`not a transaction hash: ${txHash}`);
      const query = new URLSearchParams({
        txHash,
        fromChain: String(fromChainId),
        toChain: String(toChainId),
      });
      const answer = await get("/v1/status", query);
      if (answer.status === 404) return { status: "pending", substatus: "NOT_FOUND" };
      if (answer.status === 429) throw lifiRateLimited(answer, now(), `the status of ${txHash}`);
      if (answer.status !== 200) {
        throw new ProviderFailure(
          "unavailable",
          PROVIDER,
          `LI.FI answered HTTP ${answer.status} for ${txHash}: ${excerpt(answer.body)}`,
        );
      }
      return statusOf(answer.body, txHash);
    },
  };
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

const units = z
  .string()
  .regex(/^\d+$/)
  .transform((text) => BigInt(text));
const txHash = z.string().regex(TX_HASH) as unknown as z.ZodType<`0x${string}`>;
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<`0x${string}`>;

const statusSchema = z.object({
  status: z.enum(["NOT_FOUND", "INVALID", "PENDING", "DONE", "FAILED"]),
  substatus: z.string().optional(),
  sending: z.object({ txHash: z.string().optional() }).partial().optional(),
  // Read only once something arrived: while pending LI.FI may send it half filled.
  receiving: z.unknown().optional(),
});

const receivingSchema = z.object({
  txHash: txHash,
  amount: units,
  token: z.object({ address: address }).partial().optional(),
});
type Receiving = z.infer<typeof receivingSchema>;

function statusOf(body: string, sentTxHash: string): BridgeStatus {
  const parsed = statusSchema.safeParse(parseJsonOrUndefined(body));
  if (!parsed.success) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `LI.FI answered an unreadable status: ${excerpt(body)}`,
      {
        cause: parsed.error,
      },
    );
  }
  const { status, substatus, sending, receiving } = parsed.data;
  // An answer about another transfer tells nothing about ours.
  if (sending?.txHash && sending.txHash.toLowerCase() !== sentTxHash.toLowerCase()) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `LI.FI answered about ${sending.txHash}, asked about ${sentTxHash}`,
    );
  }

  switch (status) {
    case "NOT_FOUND":
      return { status: "pending", substatus: "NOT_FOUND" };
    case "PENDING":
      return { status: "pending", ...(substatus ? { substatus } : {}) };
    case "INVALID":
      // The hash is not a transfer of the tool LI.FI expected: waiting will not change that.
      return { status: "failed", substatus: substatus ?? "INVALID" };
    case "FAILED":
      if (substatus === "REFUNDED") return refundOrFailure(receiving, substatus);
      return { status: "failed", substatus: substatus ?? "UNKNOWN_ERROR", ...deliveredIfAny(receiving) };
    case "DONE": {
      if (substatus === "PARTIAL" || substatus === "REFUNDED") {
        const arrived = receivingSchema.safeParse(receiving);
        // Money that moved but cannot be located is for the operator, not for a guess.
        if (!arrived.success) return { status: "failed", substatus };
        return {
          status: substatus === "PARTIAL" ? "partial" : "refunded",
          substatus,
          ...deliveredOf(arrived.data),
        };
      }
      if (substatus !== "COMPLETED") {
        return { status: "failed", substatus: substatus ?? "UNKNOWN", ...deliveredIfAny(receiving) };
      }
      const delivered = receivingSchema.safeParse(receiving);
      // A completion that does not say what arrived where cannot move the order on.
      if (!delivered.success) {
        throw new ProviderFailure(
          "unavailable",
          PROVIDER,
          `LI.FI reported ${sentTxHash} completed without a readable receiving transaction and amount: ${excerpt(body)}`,
          { cause: delivered.error },
        );
      }
      return { status: "done", substatus, ...deliveredOf(delivered.data) };
    }
  }
}

/** A refund LI.FI reports: what came back, or a failure when it does not say readably where. */
function refundOrFailure(receiving: unknown, substatus: string): BridgeStatus {
  const arrived = receivingSchema.safeParse(receiving);
  if (!arrived.success) return { status: "failed", substatus };
  return { status: "refunded", substatus, reportedFailed: true, ...deliveredOf(arrived.data) };
}

/** What a partial delivery or a refund left on the destination, when LI.FI says so readably. */
function deliveredIfAny(receiving: unknown): Partial<BridgeStatus> {
  const delivered = receivingSchema.safeParse(receiving);
  return delivered.success ? deliveredOf(delivered.data) : {};
}

function deliveredOf(receiving: Receiving): Partial<BridgeStatus> {
  return {
    receivedAmount: receiving.amount,
    receivingTxHash: receiving.txHash,
    ...(receiving.token?.address ? { receivedToken: receiving.token.address } : {}),
  };
}

function parseJsonOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
