import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { BridgeExecutor } from "../../lib/settlement/legs/ports";
import { lifiStatus } from "../../lib/vendors/lifi/lifi-status";
import {
  LIFI_ABOUT_ANOTHER_TX,
  LIFI_DONE_COMPLETED,
  LIFI_DONE_PARTIAL,
  LIFI_DONE_REFUNDED,
  LIFI_DONE_REFUNDED_ON_BASE,
  LIFI_DONE_WITHOUT_RECEIVING,
  LIFI_FAILED,
  LIFI_INVALID,
  LIFI_NOT_FOUND,
  LIFI_PENDING,
  LIFI_RECEIVING_TX,
  LIFI_ROUTE_TX,
  LIFI_UNKNOWN_STATUS,
  LIFI_USDC_BASE,
  LIFI_USDM,
} from "./fixtures/lifi-status";
import { type RecordedHttpServer, startRecordedHttpServer } from "./recorded-http-server";

const BASE = 8453;
const CELO = 42220;
const TIMEOUT_MS = 200;

let lifi: RecordedHttpServer;
let route: BridgeExecutor;

beforeAll(async () => {
  lifi = await startRecordedHttpServer();
  route = lifiStatus({ baseUrl: lifi.baseUrl, apiKey: "test-key", timeoutMs: TIMEOUT_MS });
});
afterAll(() => lifi.close());

async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

const ask = () => route.status({ txHash: LIFI_ROUTE_TX, fromChainId: BASE, toChainId: CELO });

describe("LI.FI status", () => {
  it("asks by the route transaction with both chains, and sends the API key", async () => {
    lifi.answerWith({ status: 200, body: LIFI_PENDING });
    await ask();
    const request = lifi.received.at(-1);
    expect(request?.method).toBe("GET");
    expect(request?.url.pathname).toBe("/v1/status");
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
      txHash: LIFI_ROUTE_TX,
      fromChain: "8453",
      toChain: "42220",
    });
    expect(request?.headers["x-lifi-api-key"]).toBe("test-key");
  });

  it("is done only on DONE + COMPLETED, with the amount, token and transaction received", async () => {
    lifi.answerWith({ status: 200, body: LIFI_DONE_COMPLETED });
    expect(await ask()).toEqual({
      status: "done",
      substatus: "COMPLETED",
      receivedAmount: 99_900_000_000_000_000_000n,
      receivedToken: LIFI_USDM,
      receivingTxHash: LIFI_RECEIVING_TX,
    });
  });

  it("is partial on DONE + PARTIAL and refunded on DONE + REFUNDED, with what arrived where", async () => {
    lifi.answerWith({ status: 200, body: LIFI_DONE_PARTIAL });
    const partial = await ask();
    expect(partial).toMatchObject({ status: "partial", substatus: "PARTIAL", receivedAmount: 99_900_000n });
    expect(partial.receivedToken?.toLowerCase()).not.toBe(LIFI_USDM.toLowerCase());

    lifi.answerWith({ status: 200, body: LIFI_DONE_REFUNDED_ON_BASE });
    expect(await ask()).toEqual({
      status: "refunded",
      substatus: "REFUNDED",
      receivedAmount: 100_000_000n,
      receivedToken: LIFI_USDC_BASE,
      receivingTxHash: LIFI_RECEIVING_TX,
    });
  });

  it("is failed on a PARTIAL or REFUNDED that does not say what arrived: the operator locates the money", async () => {
    lifi.answerWith({ status: 200, body: LIFI_DONE_REFUNDED });
    expect(await ask()).toEqual({ status: "failed", substatus: "REFUNDED" });
  });

  it("is refunded on FAILED + REFUNDED (LI.FI's documentation lists it: the tokens were refunded), with what came back", async () => {
    const failedRefunded = LIFI_DONE_REFUNDED_ON_BASE.replace('"status": "DONE"', '"status": "FAILED"');
    expect(failedRefunded).toContain('"status": "FAILED"');
    lifi.answerWith({ status: 200, body: failedRefunded });
    expect(await ask()).toEqual({
      status: "refunded",
      substatus: "REFUNDED",
      reportedFailed: true,
      receivedAmount: 100_000_000n,
      receivedToken: LIFI_USDC_BASE,
      receivingTxHash: LIFI_RECEIVING_TX,
    });
    lifi.answerWith({
      status: 200,
      body: LIFI_DONE_REFUNDED.replace('"status": "DONE"', '"status": "FAILED"'),
    });
    expect(await ask()).toEqual({ status: "failed", substatus: "REFUNDED" });
  });

  it("answers a 429 with the time LI.FI asked to stay away: its ratelimit-reset, else a minute", async () => {
    lifi.answerWith({
      status: 429,
      body: `{"message":"Rate limit exceeded","code":1005}`,
      headers: { "ratelimit-reset": "42" },
    });
    expect((await failureOf(ask())).retryAfterMs).toBe(42_000);
    lifi.answerWith({ status: 429, body: `{"message":"Rate limit exceeded","code":1005}` });
    expect((await failureOf(ask())).retryAfterMs).toBe(60_000);
  });

  it("is failed on FAILED and INVALID", async () => {
    lifi.answerWith({ status: 200, body: LIFI_FAILED });
    expect(await ask()).toEqual({ status: "failed", substatus: "NOT_PROCESSABLE_REFUND_NEEDED" });
    lifi.answerWith({ status: 200, body: LIFI_INVALID });
    expect(await ask()).toEqual({ status: "failed", substatus: "INVALID" });
  });

  it("is pending on PENDING, on NOT_FOUND and on HTTP 404 (not indexed yet)", async () => {
    lifi.answerWith({ status: 200, body: LIFI_PENDING });
    expect(await ask()).toEqual({ status: "pending", substatus: "WAIT_DESTINATION_TRANSACTION" });
    lifi.answerWith({ status: 200, body: LIFI_NOT_FOUND });
    expect(await ask()).toEqual({ status: "pending", substatus: "NOT_FOUND" });
    lifi.answerWith({ status: 404, body: `{"message":"Not found"}` });
    expect(await ask()).toEqual({ status: "pending", substatus: "NOT_FOUND" });
  });

  it("is unavailable on 5xx, 429, unreadable answers, a completion without receipt, or another transfer", async () => {
    const answers = [
      { status: 500, body: "internal error", said: /HTTP 500/ },
      { status: 502, body: "<html>bad gateway</html>", said: /HTTP 502/ },
      { status: 429, body: `{"message":"Rate limit exceeded","code":1005}`, said: /rate limiting/ },
      { status: 200, body: "not json", said: /unreadable/ },
      { status: 200, body: LIFI_UNKNOWN_STATUS, said: /unreadable/ },
      { status: 200, body: LIFI_DONE_WITHOUT_RECEIVING, said: /without a readable receiving/ },
      { status: 200, body: LIFI_ABOUT_ANOTHER_TX, said: /answered about 0x7777/ },
    ];
    for (const { status, body, said } of answers) {
      lifi.answerWith({ status, body });
      const failure = await failureOf(ask());
      expect(failure.kind, body.slice(0, 60)).toBe("unavailable");
      expect(failure.provider).toBe("lifi");
      expect(failure.message).toMatch(said);
    }
  });

  it("is unavailable when LI.FI does not answer in time", async () => {
    lifi.answerWith("hang");
    const failure = await failureOf(ask());
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/did not answer within 200 ms/);
  });

  it("refuses a hash that cannot be one without asking", async () => {
    const before = lifi.received.length;
    await expect(route.status({ txHash: "0xabc", fromChainId: BASE, toChainId: CELO })).rejects.toThrow(
      RangeError,
    );
    expect(lifi.received.length).toBe(before);
  });
});
