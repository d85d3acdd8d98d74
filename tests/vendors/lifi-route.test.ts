import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { apiErrorOf } from "../../lib/settlement/pricing/api-error-of";
import type { BridgeProvider, BridgeQuoteRequest } from "../../lib/settlement/pricing/ports";
import { lifiQuote } from "../../lib/vendors/lifi/lifi-quote";
import {
  LIFI_DIAMOND,
  LIFI_NO_QUOTE,
  LIFI_QUOTE_BASE_TO_CELO,
  LIFI_RATE_LIMITED,
  LIFI_SERVER_ERROR,
  LIFI_SETTLEMENT_ACCOUNT,
  LIFI_USDC_BASE,
  LIFI_USDM_CELO,
} from "./fixtures/lifi";
import { type RecordedHttpServer, startRecordedHttpServer } from "./recorded-http-server";

const TIMEOUT_MS = 200;

const REQUEST: BridgeQuoteRequest = {
  fromChainId: 8453,
  toChainId: 42220,
  fromToken: LIFI_USDC_BASE,
  toToken: LIFI_USDM_CELO,
  fromAmount: 100_000_000n,
  fromAddress: LIFI_SETTLEMENT_ACCOUNT,
  toAddress: LIFI_SETTLEMENT_ACCOUNT,
  slippageBps: 50,
};

let lifi: RecordedHttpServer;
let route: BridgeProvider;

beforeAll(async () => {
  lifi = await startRecordedHttpServer();
  route = lifiQuote({
    baseUrl: lifi.baseUrl,
    apiKey: "lifi-key-123",
    integrator: "copm-settlement",
    timeoutMs: TIMEOUT_MS,
  });
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

describe("LI.FI route", () => {
  it("asks /v1/quote with the documented parameters, the slippage as a fraction and the API key", async () => {
    lifi.answerWith({ status: 200, body: LIFI_QUOTE_BASE_TO_CELO });
    await route.quoteBridge(REQUEST);

    const request = lifi.received.at(-1);
    expect(request?.method).toBe("GET");
    expect(request?.url.pathname).toBe("/v1/quote");
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
      fromChain: "8453",
      toChain: "42220",
      fromToken: LIFI_USDC_BASE,
      toToken: LIFI_USDM_CELO,
      fromAmount: "100000000",
      fromAddress: LIFI_SETTLEMENT_ACCOUNT,
      toAddress: LIFI_SETTLEMENT_ACCOUNT,
      slippage: "0.005",
      integrator: "copm-settlement",
    });
    expect(request?.headers["x-lifi-api-key"]).toBe("lifi-key-123");
    expect(request?.headers.accept).toBe("application/json");
  });

  it("sends no key and no integrator when none is configured, and 3% as 0.03", async () => {
    const anonymous = lifiQuote({ baseUrl: lifi.baseUrl, timeoutMs: TIMEOUT_MS });
    lifi.answerWith({ status: 200, body: LIFI_QUOTE_BASE_TO_CELO });
    await anonymous.quoteBridge({ ...REQUEST, slippageBps: 300 });

    const request = lifi.received.at(-1);
    expect(request?.headers["x-lifi-api-key"]).toBeUndefined();
    expect(request?.url.searchParams.has("integrator")).toBe(false);
    expect(request?.url.searchParams.get("slippage")).toBe("0.03");
  });

  it("reads the estimate and the transaction to sign exactly", async () => {
    lifi.answerWith({ status: 200, body: LIFI_QUOTE_BASE_TO_CELO });
    const quote = await route.quoteBridge(REQUEST);
    expect(quote).toEqual({
      provider: "lifi",
      tool: "relay",
      fromAmount: 100_000_000n,
      toAmount: 99_650_000_000_000_000_000n,
      toAmountMin: 99_151_750_000_000_000_000n,
      executionDurationSeconds: 24,
      transactionRequest: {
        to: LIFI_DIAMOND,
        data: expect.stringMatching(/^0x4666fc80[0-9a-f]+$/),
        value: 0n,
      },
      approvalAddress: LIFI_DIAMOND,
    });
  });

  it("reads a decimal or hex value, and rounds a fractional duration up", async () => {
    const quote = JSON.parse(LIFI_QUOTE_BASE_TO_CELO);
    quote.transactionRequest.value = "1000000000000000";
    quote.estimate.executionDuration = 24.2;
    lifi.answerWith({ status: 200, body: JSON.stringify(quote) });
    const decimal = await route.quoteBridge(REQUEST);
    expect(decimal.transactionRequest?.value).toBe(10n ** 15n);
    expect(decimal.executionDurationSeconds).toBe(25);

    quote.transactionRequest.value = "0x38d7ea4c68000";
    lifi.answerWith({ status: 200, body: JSON.stringify(quote) });
    expect((await route.quoteBridge(REQUEST)).transactionRequest?.value).toBe(10n ** 15n);
  });

  it("is no_route when LI.FI finds no quote (404, or code 1002 under another status)", async () => {
    for (const status of [404, 400]) {
      lifi.answerWith({ status, body: LIFI_NO_QUOTE });
      const failure = await failureOf(route.quoteBridge(REQUEST));
      expect({ kind: failure.kind, provider: failure.provider }).toEqual({
        kind: "no_route",
        provider: "lifi",
      });
      expect(failure.message).toMatch(/Unable to find a quote/);
      expect(apiErrorOf(failure).code).toBe("ROUTE_UNAVAILABLE");
    }
    // A bare 404 with no LI.FI body still says "nothing found".
    lifi.answerWith({ status: 404, body: "Not Found" });
    expect((await failureOf(route.quoteBridge(REQUEST))).kind).toBe("no_route");
  });

  it("is unavailable on 5xx, rate limiting, other refusals, malformed JSON and inconsistent quotes", async () => {
    const quote = JSON.parse(LIFI_QUOTE_BASE_TO_CELO);
    const otherAmount = { ...quote, estimate: { ...quote.estimate, fromAmount: "99000000" } };
    const minAboveExpected = {
      ...quote,
      estimate: { ...quote.estimate, toAmountMin: "99650000000000000001" },
    };
    const negativeDuration = { ...quote, estimate: { ...quote.estimate, executionDuration: -1 } };
    const badTarget = { ...quote, transactionRequest: { ...quote.transactionRequest, to: "0x1234" } };
    const answers = [
      { status: 500, body: LIFI_SERVER_ERROR },
      { status: 502, body: "<html>Bad Gateway</html>" },
      { status: 429, body: LIFI_RATE_LIMITED },
      { status: 401, body: `{"message":"Invalid API key","code":1010}` },
      { status: 200, body: LIFI_QUOTE_BASE_TO_CELO.slice(0, 300) },
      { status: 200, body: JSON.stringify({ ...quote, estimate: undefined }) },
      { status: 200, body: JSON.stringify(otherAmount) },
      { status: 200, body: JSON.stringify(minAboveExpected) },
      { status: 200, body: JSON.stringify(negativeDuration) },
      { status: 200, body: JSON.stringify(badTarget) },
    ];
    for (const answer of answers) {
      lifi.answerWith(answer);
      const failure = await failureOf(route.quoteBridge(REQUEST));
      expect({ status: answer.status, kind: failure.kind }).toEqual({
        status: answer.status,
        kind: "unavailable",
      });
      expect(apiErrorOf(failure).code).toBe("PROVIDER_UNAVAILABLE");
    }
  });

  it("says how long LI.FI's rate limit asks callers to stay away (ratelimit-reset, else a minute)", async () => {
    lifi.answerWith({ status: 429, body: LIFI_RATE_LIMITED, headers: { "ratelimit-reset": "90" } });
    expect((await failureOf(route.quoteBridge(REQUEST))).retryAfterMs).toBe(90_000);
    lifi.answerWith({ status: 429, body: LIFI_RATE_LIMITED });
    expect((await failureOf(route.quoteBridge(REQUEST))).retryAfterMs).toBe(60_000);
  });

  it("asks LI.FI to write the caller's referrer into the transaction when given one", async () => {
    lifi.answerWith({ status: 200, body: LIFI_QUOTE_BASE_TO_CELO });
    await route.quoteBridge({ ...REQUEST, referrer: "0x00000000000000000000000000000000000c0de0" });
    expect(lifi.received.at(-1)?.url.searchParams.get("referrer")).toBe(
      "0x00000000000000000000000000000000000c0de0",
    );
  });

  it("gives up on a server that never answers within the timeout", async () => {
    lifi.answerWith("hang");
    const startedAt = performance.now();
    const failure = await failureOf(route.quoteBridge(REQUEST));
    const elapsed = performance.now() - startedAt;
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/did not answer within 200 ms/);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 800);
  });

  it("refuses slippage that is not whole basis points, and an empty amount, before asking", async () => {
    const before = lifi.received.length;
    await expect(route.quoteBridge({ ...REQUEST, slippageBps: 2.5 })).rejects.toThrow(RangeError);
    await expect(route.quoteBridge({ ...REQUEST, slippageBps: 10_001 })).rejects.toThrow(RangeError);
    await expect(route.quoteBridge({ ...REQUEST, fromAmount: 0n })).rejects.toThrow(RangeError);
    expect(lifi.received.length).toBe(before);
  });
});
