import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations, settlementOrders } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { errorOf } from "../harness/bodies";
import {
  createOrder,
  createQuote,
  DESTINATION_ADDRESS,
  partnerRequest,
  SOURCE_ADDRESS,
} from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

const NUL = "\u0000";

describe("what no route accepts: NUL characters and JSON in another charset than UTF-8", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
  }, 60_000);
  afterAll(() => h.close());

  const expectNulRefused = async (response: Response, field: string) => {
    expect(response.status).toBe(400);
    const { body } = await errorOf(response);
    expect(body.error).toMatchObject({ code: "INVALID_REQUEST", retryable: false, fundsMoved: false });
    expect(body.error.problems).toContainEqual({
      field,
      code: "INVALID_REQUEST",
      problem: "contains a NUL character (U+0000), which no field accepts",
    });
  };

  it("refuses a NUL in a free-text body field (an order's reference) with 400 naming the field, and stores nothing", async () => {
    const quote = await createQuote(h, tenant);
    const response = await createOrder(h, tenant, quote.quoteId, "nul-reference", {
      reference: `invoice${NUL}7`,
    });
    await expectNulRefused(response, "body.reference");
    expect(await h.database.db.select().from(settlementOrders)).toHaveLength(0);
    // The same request without the NUL goes through: the refused one reserved nothing.
    const created = await createOrder(h, tenant, quote.quoteId, "nul-reference", { reference: "invoice7" });
    expect(created.status).toBe(201);
  });

  it("refuses a lone UTF-16 surrogate in a body string (an order's reference) with 400 naming the field, and takes a paired one", async () => {
    const quote = await createQuote(h, tenant);
    // JSON.stringify writes a lone surrogate as its escape, "\ud800": stored, it would read back as U+FFFD,
    // so the order's read and a replay of this very request would no longer match it.
    const response = await createOrder(h, tenant, quote.quoteId, "surrogate-reference", {
      reference: "invoice\ud8007",
    });
    expect(response.status).toBe(400);
    const { body } = await errorOf(response);
    expect(body.error).toMatchObject({ code: "INVALID_REQUEST", retryable: false, fundsMoved: false });
    expect(body.error.problems).toContainEqual({
      field: "body.reference",
      code: "INVALID_REQUEST",
      problem: "contains a lone UTF-16 surrogate (an unpaired \\uD800 to \\uDFFF escape), which is not text",
    });
    const ofQuote = () =>
      h.database.db.select().from(settlementOrders).where(eq(settlementOrders.quoteId, quote.quoteId));
    expect(await ofQuote()).toHaveLength(0);
    // A pair is one character (an emoji here): the order is made, reads it back, and the same request replays it.
    const emoji = "invoice \ud83d\ude00";
    const created = await createOrder(h, tenant, quote.quoteId, "surrogate-reference", { reference: emoji });
    expect(created.status).toBe(201);
    const replay = await createOrder(h, tenant, quote.quoteId, "surrogate-reference", { reference: emoji });
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(await created.json());
    expect((await ofQuote())[0]?.reference).toBe(emoji);
  });

  it("refuses a NUL at any depth of the body, keys included, on an admin route, and changes nothing", async () => {
    const before = await h.database.db.select().from(organizations);
    const response = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { name: `Renamed${NUL}`, extra: [{ deep: { [`k${NUL}`]: "v" } }] },
    });
    await expectNulRefused(response, "body.name");
    const nested = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
      method: "PATCH",
      body: { extra: [{ deep: { [`k${NUL}`]: "v", other: `x${NUL}` } }] },
    });
    const fields = (await errorOf(nested)).problems?.map((p) => p.field);
    expect(fields).toEqual(["body.extra.0.deep.k?", "body.extra.0.deep.other"]);
    expect(await h.database.db.select().from(organizations)).toEqual(before);
  });

  it("refuses a NUL in a path parameter and in a query parameter", async () => {
    await expectNulRefused(
      await partnerRequest(h, tenant, "/api/integrations/settlements/orders/ord_%00x"),
      "path",
    );
    await expectNulRefused(await adminRequest(h, "/admin/organizations?limit=1%00"), "query.limit");
  });

  it("answers 415 for JSON in UTF-16 (only UTF-8 JSON), and accepts an explicit UTF-8 charset", async () => {
    const body = JSON.stringify({
      sendAmountUsdc: "100",
      sourceAddress: SOURCE_ADDRESS,
      destinationAddress: DESTINATION_ADDRESS,
    });
    const send = (contentType: string) =>
      h.app.request("/api/integrations/settlements/quotes", {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.apiKey}`, "content-type": contentType },
        body,
      });
    for (const contentType of [
      "application/json; charset=utf-16",
      "application/json;charset=UTF-16LE",
      "application/json; charset=iso-8859-1",
    ]) {
      const refused = await send(contentType);
      expect(refused.status, contentType).toBe(415);
      expect((await errorOf(refused)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    for (const contentType of [
      "application/json; charset=UTF-8",
      "application/json;charset=utf-8",
      "application/json",
    ]) {
      expect((await send(contentType)).status, contentType).not.toBe(415);
    }
  });
});

describe("hostile bodies before any key is checked: bounded, iterative guards", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  /** `[[[…"\u0000"…]]]`: under 64 KiB, 30,000 levels deep (issue 20, finding 4). */
  const deepAroundNul = `${"[".repeat(30_000)}"\\u0000"${"]".repeat(30_000)}`;

  it("answers a 30,000-deep JSON body around a NUL with 400 on any path, key or none, never 500", async () => {
    expect(deepAroundNul.length).toBeLessThan(64 * 1024);
    for (const path of [
      "/api/integrations/settlements/quotes",
      "/admin/organizations",
      "/api/breb/kyc/otp/send",
      "/no/such/path",
    ]) {
      const response = await h.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: deepAroundNul,
      });
      expect(response.status, path).toBe(400);
      const { body } = await errorOf(response);
      expect(body.error.code, path).toBe("INVALID_REQUEST");
      expect(body.error.problems, path).toEqual([
        { field: "body", code: "INVALID_REQUEST", problem: "is nested deeper than 32 levels" },
      ]);
    }
  });

  it("refuses any JSON body nested deeper than 32 levels, NUL or not, and still names a NUL at 32", async () => {
    const deep = `{"a":${"[".repeat(40)}1${"]".repeat(40)}}`;
    const refused = await h.app.request("/admin/organizations", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: deep,
    });
    expect(refused.status).toBe(400);
    const atLimit = `{"a":${"[".repeat(31)}"x\\u0000"${"]".repeat(31)}}`;
    const named = await h.app.request("/admin/organizations", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: atLimit,
    });
    expect(named.status).toBe(400);
    expect((await errorOf(named)).problems).toEqual([
      {
        field: `body.a${".0".repeat(31)}`,
        code: "INVALID_REQUEST",
        problem: "contains a NUL character (U+0000), which no field accepts",
      },
    ]);
    // Brackets inside strings are text, not nesting.
    const quoted = await h.app.request("/admin/organizations", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer wrong" },
      body: JSON.stringify({ name: "[".repeat(5_000) }),
    });
    expect(quoted.status).toBe(401);
  });
});
