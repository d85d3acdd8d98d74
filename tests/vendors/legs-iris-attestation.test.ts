import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { Attestation, AttestationProvider } from "../../lib/settlement/legs/ports";
import { irisAttestation } from "../../lib/vendors/circle/iris-attestation";
import {
  IRIS_ATTESTATION,
  IRIS_BURN_TX,
  IRIS_FORWARD_TX,
  IRIS_MESSAGE,
  IRIS_MESSAGE_ATTESTED_FORWARD_PENDING,
  IRIS_MESSAGE_BAD_FORWARD_TX,
  IRIS_MESSAGE_FEE_AS_BIG_NUMBER,
  IRIS_MESSAGE_FORWARD_FAILED,
  IRIS_MESSAGE_FORWARDED,
  IRIS_MESSAGE_INSUFFICIENT_FEE,
  IRIS_MESSAGE_NOT_FOUND,
  IRIS_MESSAGE_PENDING,
  IRIS_NO_MESSAGES,
  IRIS_NONCE,
} from "./fixtures/iris-messages";
import { type RecordedHttpServer, startRecordedHttpServer } from "./recorded-http-server";

const ARBITRUM = 3;
const TIMEOUT_MS = 200;

let iris: RecordedHttpServer;
let circle: AttestationProvider;

beforeAll(async () => {
  iris = await startRecordedHttpServer();
  circle = irisAttestation({ baseUrl: `${iris.baseUrl}/`, timeoutMs: TIMEOUT_MS });
});
afterAll(() => iris.close());

async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

/** The one message of the fixture's burn transaction (status "none" when Iris lists none). */
const ask = async (): Promise<Omit<Attestation, "status"> & { status: Attestation["status"] | "none" }> => {
  const messages = await circle.messages({ sourceDomain: ARBITRUM, burnTxHash: IRIS_BURN_TX });
  if (messages.length > 1) throw new Error(`expected one message, got ${messages.length}`);
  return messages[0] ?? { status: "none" };
};
/** What Iris decodes of the fixtures' burn: how a pending message is told apart from another burn's. */
const DESCRIBED = {
  amount: 100_000_000n,
  mintRecipient: `0x${"0".repeat(24)}${"11".repeat(20)}`,
  hookData: "0x636374702d666f7277617264000000000000000000000000000000000000000000000000",
};

describe("Circle Iris attestation", () => {
  it("asks for the burn's messages by source domain and transaction hash", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_PENDING });
    const before = iris.received.length;
    await ask();
    expect(iris.received.length).toBe(before + 1);
    const request = iris.received.at(-1);
    expect(request?.method).toBe("GET");
    expect(request?.url.pathname).toBe("/v2/messages/3");
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({ transactionHash: IRIS_BURN_TX });
    expect(request?.headers.accept).toBe("application/json");
  });

  it("is pending while Circle waits for confirmations; no message at all while Iris has none or has not indexed the burn (404)", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_PENDING });
    expect(await ask()).toEqual({ status: "pending", eventNonce: IRIS_NONCE });
    iris.answerWith({ status: 200, body: IRIS_NO_MESSAGES });
    expect(await ask()).toEqual({ status: "none" });
    iris.answerWith({ status: 404, body: IRIS_MESSAGE_NOT_FOUND });
    expect(await ask()).toEqual({ status: "none" });
  });

  it("lists every message of a transaction with several burns, in Iris's order (ascending log index)", async () => {
    const [one] = (JSON.parse(IRIS_MESSAGE_FORWARDED) as { messages: Record<string, unknown>[] }).messages;
    const second = { ...one, eventNonce: `0x${"4d".repeat(32)}`, forwardTxHash: "" };
    iris.answerWith({ status: 200, body: JSON.stringify({ messages: [one, second] }) });
    const listed = await circle.messages({ sourceDomain: ARBITRUM, burnTxHash: IRIS_BURN_TX });
    expect(listed.map((message) => message.eventNonce)).toEqual([IRIS_NONCE, `0x${"4d".repeat(32)}`]);
    expect(listed.map((message) => message.forwardTxHash)).toEqual([IRIS_FORWARD_TX, undefined]);
  });

  it("says why Circle waits (delayReason), and keeps no placeholder message or attestation", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_INSUFFICIENT_FEE });
    expect(await ask()).toMatchObject({
      status: "pending",
      eventNonce: IRIS_NONCE,
      delayReason: "insufficient_fee",
    });
    expect(await ask()).not.toHaveProperty("message");
  });

  it("is complete once attested, with the fee Circle executed and the forward still pending", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_ATTESTED_FORWARD_PENDING });
    expect(await ask()).toEqual({
      status: "complete",
      eventNonce: IRIS_NONCE,
      message: IRIS_MESSAGE,
      attestation: IRIS_ATTESTATION,
      forwardState: "pending",
      feeExecuted: 210_000n,
      described: DESCRIBED,
    });
  });

  it("reports the forwarded mint's transaction once the Forwarding Service sent it", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_FORWARDED });
    expect(await ask()).toEqual({
      status: "complete",
      eventNonce: IRIS_NONCE,
      message: IRIS_MESSAGE,
      attestation: IRIS_ATTESTATION,
      forwardTxHash: IRIS_FORWARD_TX,
      forwardState: "confirmed",
      feeExecuted: 210_000n,
      described: DESCRIBED,
    });
  });

  it("reports a failed forward, which no amount of waiting mends", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_FORWARD_FAILED });
    const attestation = await ask();
    expect(attestation.forwardState).toBe("failed");
    expect(attestation.forwardTxHash).toBeUndefined();
  });

  it("reads the executed fee without a float (2^53 + 1 survives)", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_FEE_AS_BIG_NUMBER });
    expect((await ask()).feeExecuted).toBe(9_007_199_254_740_993n);
  });

  it("answers a 429 unavailable with the time to stay away: Circle's five-minute block, or its Retry-After", async () => {
    iris.answerWith({ status: 429, body: `{"code":429,"message":"Too Many Requests"}` });
    const blocked = await failureOf(ask());
    expect(blocked.kind).toBe("unavailable");
    expect(blocked.retryAfterMs).toBe(5 * 60_000);
    iris.answerWith({ status: 429, body: "{}", headers: { "retry-after": "7" } });
    expect((await failureOf(ask())).retryAfterMs).toBe(7_000);
    iris.answerWith({ status: 503, body: "{}", headers: { "retry-after": "7" } });
    expect((await failureOf(ask())).retryAfterMs).toBeUndefined();
  });

  it("asks Circle to re-attest a message by its nonce (POST /v2/reattest/{nonce}), and says when Circle refuses", async () => {
    iris.answerWith({
      status: 200,
      body: JSON.stringify({
        message: "Re-attestation successfully requested for nonce.",
        nonce: IRIS_NONCE,
      }),
    });
    await circle.reattest(IRIS_NONCE as `0x${string}`);
    const request = iris.received.at(-1);
    expect(request?.method).toBe("POST");
    expect(request?.url.pathname).toBe(`/v2/reattest/${IRIS_NONCE}`);
    iris.answerWith({ status: 404, body: `{"code":404,"message":"Message not found"}` });
    const refused = await failureOf(circle.reattest(IRIS_NONCE as `0x${string}`));
    expect(refused.message).toMatch(/HTTP 404 for re-attestation/);
    const before = iris.received.length;
    await expect(circle.reattest("0x1234")).rejects.toThrow(RangeError);
    expect(iris.received.length).toBe(before);
  });

  it("is unavailable on 5xx, 429, an unreadable answer, or a forward hash that is no hash", async () => {
    const answers = [
      { status: 500, body: "internal error", said: /HTTP 500/ },
      { status: 503, body: "<html>maintenance</html>", said: /HTTP 503/ },
      { status: 429, body: `{"code":429,"message":"Too many requests"}`, said: /HTTP 429/ },
      { status: 200, body: "not json", said: /unreadable/ },
      { status: 200, body: `{"data":[]}`, said: /unreadable/ },
      { status: 200, body: IRIS_MESSAGE_BAD_FORWARD_TX, said: /unreadable/ },
    ];
    for (const { status, body, said } of answers) {
      iris.answerWith({ status, body });
      const failure = await failureOf(ask());
      expect(failure.kind, body).toBe("unavailable");
      expect(failure.provider).toBe("circle-iris");
      expect(failure.message).toMatch(said);
    }
  });

  it("is unavailable when Iris does not answer in time", async () => {
    iris.answerWith("hang");
    const startedAt = performance.now();
    const failure = await failureOf(ask());
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/did not answer within 200 ms/);
    expect(performance.now() - startedAt).toBeLessThan(2_000);
  });

  it("refuses to ask about a domain or hash that cannot be one", async () => {
    const before = iris.received.length;
    await expect(circle.messages({ sourceDomain: -1, burnTxHash: IRIS_BURN_TX })).rejects.toThrow(RangeError);
    await expect(circle.messages({ sourceDomain: ARBITRUM, burnTxHash: "0x1234" })).rejects.toThrow(
      RangeError,
    );
    expect(iris.received.length).toBe(before);
  });
});
