import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { AttestationProvider } from "../../lib/settlement/leg-ports";
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

const ask = () => circle.attestation({ sourceDomain: ARBITRUM, burnTxHash: IRIS_BURN_TX });

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

  it("is pending while Circle waits for confirmations, has no message, or has not indexed the burn (404)", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_PENDING });
    expect(await ask()).toEqual({ status: "pending", eventNonce: IRIS_NONCE });
    iris.answerWith({ status: 200, body: IRIS_NO_MESSAGES });
    expect(await ask()).toEqual({ status: "pending" });
    iris.answerWith({ status: 404, body: IRIS_MESSAGE_NOT_FOUND });
    expect(await ask()).toEqual({ status: "pending" });
  });

  it("says why Circle waits (delayReason), and keeps no placeholder message or attestation", async () => {
    iris.answerWith({ status: 200, body: IRIS_MESSAGE_INSUFFICIENT_FEE });
    expect(await ask()).toEqual({
      status: "pending",
      eventNonce: IRIS_NONCE,
      delayReason: "insufficient_fee",
    });
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
    await expect(circle.attestation({ sourceDomain: -1, burnTxHash: IRIS_BURN_TX })).rejects.toThrow(
      RangeError,
    );
    await expect(circle.attestation({ sourceDomain: ARBITRUM, burnTxHash: "0x1234" })).rejects.toThrow(
      RangeError,
    );
    expect(iris.received.length).toBe(before);
  });
});
