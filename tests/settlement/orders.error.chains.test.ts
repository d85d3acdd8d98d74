import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repriceMentoPool, sandboxChainOf, WAD } from "../../dev/chains";
import type { ErrorResponseBody } from "../../lib/http/openapi-errors";
import { PRICE_SOURCES } from "../../lib/settlement";
import { settlementOrders } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import { createOrder, createQuote, partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

describe("settlement order errors", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  const orderCount = async () => (await h.database.db.select().from(settlementOrders)).length;

  it("refuses a missing, empty or 201-character Idempotency-Key with INVALID_IDEMPOTENCY_KEY", async () => {
    const quote = await createQuote(h, tenant);
    const before = await orderCount();
    const missing = await partnerRequest(h, tenant, "/api/integrations/settlements/orders", {
      method: "POST",
      body: { quoteId: quote.quoteId },
    });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).code).toBe("INVALID_IDEMPOTENCY_KEY");
    for (const key of ["", "k".repeat(201)]) {
      const response = await createOrder(h, tenant, quote.quoteId, key);
      expect(response.status, `key of ${key.length}`).toBe(400);
      expect((await errorOf(response)).code).toBe("INVALID_IDEMPOTENCY_KEY");
    }
    expect((await createOrder(h, tenant, quote.quoteId, "k".repeat(200))).status).toBe(201);
    expect(await orderCount()).toBe(before + 1);
  });

  it("answers QUOTE_NOT_FOUND for an unknown quote and for another organization's, alike", async () => {
    const stranger = await createTenant(h, "Stranger");
    const theirs = await createQuote(h, stranger);
    const unknown = await createOrder(h, tenant, "qt_00000000000000000000000000", "key-nf-1");
    const foreign = await createOrder(h, tenant, theirs.quoteId, "key-nf-2");
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    const strip = (body: ErrorResponseBody) => ({ ...body.error, requestId: undefined });
    expect(strip((await errorOf(foreign)).body)).toEqual(strip((await errorOf(unknown)).body));
  });

  it("accepts an order a millisecond before expiresAt and refuses one at exactly expiresAt (issue 20, finding 14)", async () => {
    const before = await createQuote(h, tenant);
    h.clock.set(new Date(new Date(before.expiresAt as string).getTime() - 1));
    expect((await createOrder(h, tenant, before.quoteId, "key-edge-before")).status).toBe(201);
    const at = await createQuote(h, tenant);
    h.clock.set(new Date(at.expiresAt as string));
    const response = await createOrder(h, tenant, at.quoteId, "key-edge-at");
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe("QUOTE_EXPIRED");
  });

  it("answers QUOTE_EXPIRED past expiresAt with the spec's stage, funds status and next action", async () => {
    const quote = await createQuote(h, tenant);
    h.clock.advance(60_001);
    const response = await createOrder(h, tenant, quote.quoteId, "key-expired-1");
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({
      code: "QUOTE_EXPIRED",
      stage: "CREATED",
      fundsStatus: "IN_USER_WALLET",
      fundsMoved: false,
      retryable: true,
      nextAction: "CREATE_NEW_QUOTE",
    });
  });

  it("answers IDEMPOTENCY_CONFLICT for the same key with another quote, and QUOTE_ALREADY_USED for another key", async () => {
    const first = await createQuote(h, tenant);
    const second = await createQuote(h, tenant);
    expect((await createOrder(h, tenant, first.quoteId, "key-conflict-1")).status).toBe(201);
    const conflict = await createOrder(h, tenant, second.quoteId, "key-conflict-1");
    expect(conflict.status).toBe(409);
    expect((await errorOf(conflict)).code).toBe("IDEMPOTENCY_CONFLICT");
    const used = await createOrder(h, tenant, first.quoteId, "key-conflict-2");
    expect(used.status).toBe(409);
    expect((await errorOf(used)).code).toBe("QUOTE_ALREADY_USED");
    // The second quote is still free to order under a new key.
    expect((await createOrder(h, tenant, second.quoteId, "key-conflict-3")).status).toBe(201);
  });

  it("answers IDEMPOTENCY_CONFLICT for the same key and quote with another reference, and replays only the same request", async () => {
    const quote = await createQuote(h, tenant);
    const first = await createOrder(h, tenant, quote.quoteId, "key-reference-1", { reference: "invoice-1" });
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    for (const other of [{ reference: "invoice-2" }, {}]) {
      const conflict = await createOrder(h, tenant, quote.quoteId, "key-reference-1", other);
      expect(conflict.status, JSON.stringify(other)).toBe(409);
      expect((await errorOf(conflict)).code).toBe("IDEMPOTENCY_CONFLICT");
    }
    const replay = await createOrder(h, tenant, quote.quoteId, "key-reference-1", { reference: "invoice-1" });
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(firstBody);
    // And an order made without a reference is not replayed for a request that has one.
    const bare = await createQuote(h, tenant);
    expect((await createOrder(h, tenant, bare.quoteId, "key-reference-2")).status).toBe(201);
    const withReference = await createOrder(h, tenant, bare.quoteId, "key-reference-2", {
      reference: "late",
    });
    expect((await errorOf(withReference)).code).toBe("IDEMPOTENCY_CONFLICT");
  });

  it("answers INTAKE_PAUSED when the organization pauses between quote and order", async () => {
    const paused = await createTenant(h, "Pauses later");
    const quote = await createQuote(h, paused);
    await adminRequest(h, `/admin/organizations/${paused.organizationId}`, {
      method: "PATCH",
      body: { intakePaused: true },
    });
    const response = await createOrder(h, paused, quote.quoteId, "key-paused-1");
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({
      code: "INTAKE_PAUSED",
      fundsMoved: false,
    });
  });

  it("re-prices the route and refuses an order more than 4% worse than quoted, creating nothing", async () => {
    const network = h.network;
    if (!network) throw new Error("no chains");
    const destination = sandboxChainOf(network, "destination");
    const setRate = (copmPerUsdm: bigint) =>
      repriceMentoPool(destination, "USDm/COPm", { rate: copmPerUsdm, spread: 25n * 10n ** 14n });
    const quote = await createQuote(h, tenant);
    const before = await orderCount();
    try {
      await setRate(3_700n * WAD); // 5.1% fewer COPm per USDm than the 3,900 quoted
      // The quote's Mento price may be kept for its maximum age; the order re-prices from one no older.
      h.clock.advance(PRICE_SOURCES.mento.maxAgeMs);
      const refused = await createOrder(h, tenant, quote.quoteId, "key-slip-1");
      expect(refused.status).toBe(409);
      expect(await errorOf(refused)).toMatchObject({
        code: "SLIPPAGE_LIMIT_EXCEEDED",
        stage: "CREATED",
        fundsMoved: false,
      });
      expect(await orderCount()).toBe(before);

      await setRate(3_760n * WAD); // 3.6% fewer: within the guard
      h.clock.advance(PRICE_SOURCES.mento.maxAgeMs);
      expect((await createOrder(h, tenant, quote.quoteId, "key-slip-2")).status).toBe(201);
    } finally {
      await setRate(3_900n * WAD);
    }
  });

  it("answers ORDER_NOT_FOUND for an unknown order", async () => {
    const response = await partnerRequest(
      h,
      tenant,
      "/api/integrations/settlements/orders/ord_00000000000000000000000000",
    );
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("ORDER_NOT_FOUND");
  });
});
