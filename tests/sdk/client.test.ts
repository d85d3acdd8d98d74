import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSIONS, CURRENT_API_VERSION } from "../../lib/http/api-versions";
import { API_VERSION, Copm, CopmApiError, paginate } from "../../sdk/src";
import type { Harness } from "../harness/app";
import { settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

const ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

/** The SDK against the in-process app: typed calls, the documented errors, idempotency keys, pages. */
describe("the SDK's client against the app", () => {
  let h: Harness;
  let tenant: Tenant;
  const seen: Request[] = [];
  let copm: Copm;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
    copm = new Copm({
      baseUrl: "http://copm.test/",
      apiKey: tenant.apiKey,
      language: "en",
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(request.clone());
        return h.app.fetch(request);
      },
    });
  }, 60_000);
  afterAll(() => h.close());

  const inProcess: typeof fetch = async (input, init) => h.app.fetch(new Request(input, init));
  const quote = async () =>
    (
      await copm.createSettlementQuote({
        body: { sendAmountUsdc: "25", sourceAddress: ADDRESS, destinationAddress: ADDRESS },
      })
    ).data;

  it("pins the API version it was generated for, which is the service's current one", async () => {
    expect(API_VERSION).toBe(CURRENT_API_VERSION);
    seen.length = 0;
    const { response } = await copm.listWebhookEvents();
    expect(seen[0]?.headers.get("api-version")).toBe(API_VERSION);
    expect(seen[0]?.headers.get("authorization")).toBe(`Bearer ${tenant.apiKey}`);
    expect(response.headers.get("api-version")).toBe(API_VERSION);
  });

  it("creates a quote and an order and reads it back, typed; a creation given no key gets one of its own", async () => {
    const q = await quote();
    expect(q.sendAmountUsdc).toBe("25");
    seen.length = 0;
    const { data: order } = await copm.createSettlementOrder({
      body: { quoteId: q.quoteId, reference: "sdk-1" },
    });
    const key = seen[0]?.headers.get("idempotency-key");
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.status).toBe("CREATED");
    const { data: read } = await copm.getSettlementOrder({ path: { orderId: order.orderId } });
    expect(read.orderId).toBe(order.orderId);
    expect(read.quote.quoteId).toBe(q.quoteId);

    // The same key answers the same order; another call without a key is another order (refused here).
    const again = await copm.createSettlementOrder({
      body: { quoteId: q.quoteId, reference: "sdk-1" },
      headers: { "idempotency-key": key as string },
    });
    expect(again.data.orderId).toBe(order.orderId);
    const refused = await copm
      .createSettlementOrder({ body: { quoteId: q.quoteId } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CopmApiError);
    expect(refused).toMatchObject({ code: "QUOTE_ALREADY_USED", status: 409 });
  });

  it("throws every failure as a CopmApiError carrying the documented body", async () => {
    const missing = await copm.getSettlementOrder({ path: { orderId: "ord_nope" } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CopmApiError);
    expect(missing).toMatchObject({
      status: 404,
      code: "ORDER_NOT_FOUND",
      retryable: false,
      fundsMoved: false,
      stage: "REQUEST",
      fundsStatus: "IN_USER_WALLET",
    });
    expect((missing as CopmApiError).requestId).toMatch(/^req_/);
    expect((missing as CopmApiError).message).toMatch(/^ORDER_NOT_FOUND: /);

    const invalid = await copm
      .createSettlementQuote({
        body: { sendAmountUsdc: "-1", sourceAddress: ADDRESS, destinationAddress: ADDRESS },
      })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: "INVALID_AMOUNT", nextAction: "FIX_REQUEST" });

    const stranger = new Copm({
      baseUrl: "http://copm.test",
      apiKey: "copm_test_wrong",
      fetch: inProcess,
    });
    const unauthorized = await stranger.listWebhookEvents().catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ status: 401, code: "UNAUTHORIZED", retryable: false });

    const old = new Copm({
      baseUrl: "http://copm.test",
      apiKey: tenant.apiKey,
      apiVersion: "2020-01-01",
      fetch: inProcess,
    });
    const unknown = await old.listWebhookEvents().catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 400, code: "API_VERSION_UNKNOWN" });
    expect((unknown as CopmApiError).details.knownVersions).toEqual([...API_VERSIONS]);
  });

  it("iterates a cursor-paged listing over every page, asking for the next page only when needed", async () => {
    for (let i = 0; i < 3; i++)
      await copm.createSettlementOrder({ body: { quoteId: (await quote()).quoteId } });
    const { data: all } = await copm.listSettlementOrders({ query: { limit: 500 } });
    expect(all.orders.length).toBeGreaterThanOrEqual(4);
    seen.length = 0;
    const ids: string[] = [];
    for await (const order of paginate((options) => copm.listSettlementOrders(options), { limit: 2 })) {
      ids.push(order.orderId);
    }
    expect(ids).toEqual(all.orders.map((order) => order.orderId));
    // A page of two says whether more follow (nextCursor null on the last): no empty page is asked for.
    expect(seen).toHaveLength(Math.ceil(all.orders.length / 2));
    expect(new URL(seen[1]?.url ?? "").searchParams.get("cursor")).toBe(ids[1]);

    const created: string[] = [];
    for await (const order of copm.each.settlementOrders({ status: "CREATED", limit: 1 }))
      created.push(order.status);
    expect(created.length).toBe(all.orders.filter((order) => order.status === "CREATED").length);
    expect(new Set(created)).toEqual(new Set(["CREATED"]));
  });
});
