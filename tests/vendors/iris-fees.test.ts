import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { apiErrorOf } from "../../lib/settlement/pricing/api-error-of";
import type { TransferFeesProvider } from "../../lib/settlement/pricing/ports";
import { irisTransferFees } from "../../lib/vendors/circle/iris-fees";
import { freePort } from "../harness/free-port";
import {
  IRIS_FEES_ARBITRUM_TO_BASE,
  IRIS_FEES_BAD_MINIMUM_FEE,
  IRIS_FEES_FRACTIONAL,
  IRIS_FEES_OPENAPI_SPELLING,
  IRIS_FEES_STANDARD_ONLY,
  IRIS_FEES_WITHOUT_FORWARDING,
  IRIS_UNSUPPORTED_DOMAIN,
} from "./fixtures/iris";
import { type RecordedHttpServer, startRecordedHttpServer } from "./recorded-http-server";

const ARBITRUM = 3;
const BASE = 6;
const TIMEOUT_MS = 200;

let iris: RecordedHttpServer;
let fees: TransferFeesProvider;

beforeAll(async () => {
  iris = await startRecordedHttpServer();
  // A trailing slash on the base URL must not double the path's.
  fees = irisTransferFees({ baseUrl: `${iris.baseUrl}/`, timeoutMs: TIMEOUT_MS });
});
afterAll(() => iris.close());

/** The failure a call ends with; fails the test if it succeeds or throws something else. */
async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

const FAST = 1000;
const STANDARD = 2000;

describe("Circle Iris fees", () => {
  it("asks for the route's fees with forwarding and reads the asked finality's fee and the medium forward fee", async () => {
    iris.answerWith({ status: 200, body: IRIS_FEES_ARBITRUM_TO_BASE });
    const before = iris.received.length;

    const quoted = await fees.transferFees({
      sourceDomain: ARBITRUM,
      destinationDomain: BASE,
      finalityThreshold: FAST,
    });
    expect(quoted).toEqual({ minimumFee: { numerator: 1n, denominator: 10_000n }, forwardFeeUsdc: 200_000n });
    const standard = await fees.transferFees({
      sourceDomain: ARBITRUM,
      destinationDomain: BASE,
      finalityThreshold: STANDARD,
    });
    expect(standard).toEqual({ minimumFee: { numerator: 0n, denominator: 1n }, forwardFeeUsdc: 200_000n });
    expect(iris.received.length).toBe(before + 2);
    const request = iris.received.at(-1);
    expect(request?.method).toBe("GET");
    expect(request?.url.pathname).toBe("/v2/burn/USDC/fees/3/6");
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({ forward: "true" });
    expect(request?.headers.accept).toBe("application/json");
  });

  it("keeps a fractional bps fee exact: 1.3 bps is 13/100000 of the amount", async () => {
    iris.answerWith({ status: 200, body: IRIS_FEES_FRACTIONAL });
    const quoted = await fees.transferFees({
      sourceDomain: BASE,
      destinationDomain: 1,
      finalityThreshold: FAST,
    });
    expect(quoted).toEqual({
      minimumFee: { numerator: 13n, denominator: 100_000n },
      forwardFeeUsdc: 207_543n,
    });
    // 1,000 USDC burned pays 0.13 USDC, the figure a float would not give exactly.
    expect((1_000_000_000n * quoted.minimumFee.numerator) / quoted.minimumFee.denominator).toBe(130_000n);
  });

  it("reads the OpenAPI spelling `medium`, and reads numbers without a float (2^53 + 1 survives)", async () => {
    iris.answerWith({ status: 200, body: IRIS_FEES_OPENAPI_SPELLING });
    const quoted = await fees.transferFees({
      sourceDomain: ARBITRUM,
      destinationDomain: BASE,
      finalityThreshold: FAST,
    });
    expect(quoted).toEqual({
      minimumFee: { numerator: 1n, denominator: 20_000n },
      forwardFeeUsdc: 9_007_199_254_740_993n,
    });
  });

  it("is no_route when Circle offers no transfer at the asked finality, no forwarding, or refuses the domains", async () => {
    const cases = [
      { status: 200, body: IRIS_FEES_STANDARD_ONLY, said: /no Fast transfer/ },
      { status: 200, body: IRIS_FEES_WITHOUT_FORWARDING, said: /no Forwarding Service fee/ },
      { status: 400, body: IRIS_UNSUPPORTED_DOMAIN, said: /Invalid destination domain/ },
      { status: 404, body: `{"code":404,"message":"Not found"}`, said: /no route 3\/99/ },
    ];
    for (const { status, body, said } of cases) {
      iris.answerWith({ status, body });
      const failure = await failureOf(
        fees.transferFees({ sourceDomain: ARBITRUM, destinationDomain: 99, finalityThreshold: FAST }),
      );
      expect({ kind: failure.kind, provider: failure.provider }).toEqual({
        kind: "no_route",
        provider: "circle-iris",
      });
      expect(failure.message).toMatch(said);
      expect(apiErrorOf(failure).code).toBe("ROUTE_UNAVAILABLE");
    }
  });

  it("is unavailable on 5xx, rate limiting, malformed JSON and answers that do not fit the schema", async () => {
    const answers = [
      { status: 500, body: `{"code":500,"message":"Internal error"}` },
      { status: 503, body: "<html>Service Unavailable</html>" },
      { status: 429, body: `{"code":429,"message":"Too many requests"}` },
      { status: 200, body: `[{"finalityThreshold":1000,"minimumFee":1,` },
      { status: 200, body: IRIS_FEES_BAD_MINIMUM_FEE },
      { status: 200, body: `{"fees":[]}` },
    ];
    for (const answer of answers) {
      iris.answerWith(answer);
      const failure = await failureOf(
        fees.transferFees({ sourceDomain: ARBITRUM, destinationDomain: BASE, finalityThreshold: FAST }),
      );
      expect(failure.kind).toBe("unavailable");
      expect(apiErrorOf(failure).code).toBe("PROVIDER_UNAVAILABLE");
    }
  });

  it("gives up on a server that never answers within the timeout", async () => {
    iris.answerWith("hang");
    const startedAt = performance.now();
    const failure = await failureOf(
      fees.transferFees({ sourceDomain: ARBITRUM, destinationDomain: BASE, finalityThreshold: FAST }),
    );
    const elapsed = performance.now() - startedAt;
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/did not answer within 200 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 800);
  });

  it("is unavailable when nothing listens", async () => {
    const nowhere = irisTransferFees({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    const failure = await failureOf(
      nowhere.transferFees({ sourceDomain: ARBITRUM, destinationDomain: BASE, finalityThreshold: FAST }),
    );
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/could not be reached/);
  });

  it("waits 5 s by default, even for a fetch that ignores the abort signal", async () => {
    vi.useFakeTimers();
    try {
      const silent = irisTransferFees({ baseUrl: "http://iris.invalid", fetch: () => new Promise(() => {}) });
      let outcome: unknown;
      silent
        .transferFees({ sourceDomain: ARBITRUM, destinationDomain: BASE, finalityThreshold: FAST })
        .catch((error: unknown) => {
          outcome = error;
        });
      await vi.advanceTimersByTimeAsync(4_999);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBeInstanceOf(ProviderFailure);
      expect((outcome as ProviderFailure).kind).toBe("unavailable");
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a domain that is not a whole number before asking", async () => {
    const before = iris.received.length;
    await expect(
      fees.transferFees({ sourceDomain: -1, destinationDomain: BASE, finalityThreshold: FAST }),
    ).rejects.toThrow(RangeError);
    expect(iris.received.length).toBe(before);
  });
});
