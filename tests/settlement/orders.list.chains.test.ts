import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import {
  type GetSettlementOrderResponse,
  route as getOrderRoute,
} from "../../functions/settlement/get-order";
import {
  type ListSettlementOrdersResponse,
  route as listOrdersRoute,
} from "../../functions/settlement/list-orders";
import { loadOrderState, markStuck, moveOrder } from "../../lib/settlement/progress/state";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { verifiedBurnMove } from "../harness/moves";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import { createOrder, createQuote, partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

const LIST = "/api/integrations/settlements/orders";
const BURN_TX = `0x${"ab".repeat(32)}`;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true });
}, 60_000);
afterAll(() => h.close());

/** An order in CREATED, one second after the previous one. */
async function placeOrder(tenant: Tenant, key: string): Promise<string> {
  h.clock.advance(1_000);
  const quote = await createQuote(h, tenant);
  const response = await createOrder(h, tenant, quote.quoteId, key);
  return (await bodyOf(response, createOrderRoute, 201)).orderId;
}

async function list(tenant: Tenant, query = ""): Promise<ListSettlementOrdersResponse> {
  return bodyOf(await partnerRequest(h, tenant, `${LIST}${query}`), listOrdersRoute, 200);
}

describe("listing settlement orders", () => {
  let tenant: Tenant;
  /** Five orders, oldest first: the second BURNED (with its burn on the timeline), the fourth STUCK. */
  let ids: string[];
  beforeAll(async () => {
    tenant = await createTenant(h, "Lister");
    ids = [];
    for (let i = 0; i < 5; i++) ids.push(await placeOrder(tenant, `list-${i}`));
    const ctx = quietContext(h);
    h.clock.advance(1_000);
    const burned = await loadOrderState(ctx, ids[1] as string);
    if (!burned) throw new Error("no order");
    expect(await moveOrder(ctx, burned, verifiedBurnMove(burned, 31331, BURN_TX))).toBe(true);
    const stuck = await loadOrderState(ctx, ids[3] as string);
    if (!stuck) throw new Error("no order");
    await markStuck(ctx, stuck, "a test stopped it");
  }, 60_000);

  it("lists every order oldest first, each as a summary of what its read answers", async () => {
    const page = await list(tenant);
    // Read as sent, the page is what its schema reads, nothing more: each summary is compared whole below.
    const raw: unknown = await (await partnerRequest(h, tenant, LIST)).json();
    expect(raw).toEqual(page);
    expect(page.nextCursor).toBeNull();
    expect(page.orders.map((order) => order.orderId)).toEqual(ids);
    for (const summary of page.orders) {
      const read = await bodyOf(
        await partnerRequest(h, tenant, `${LIST}/${summary.orderId}`),
        getOrderRoute,
        200,
      );
      expect(summary).toEqual({
        orderId: read.orderId,
        status: read.status,
        health: read.health,
        fundsStatus: read.fundsStatus,
        reference: read.reference,
        quoteId: read.quote.quoteId,
        sourceChain: read.execution.chain,
        sourceChainId: read.execution.chainId,
        destinationChainId: read.quote.legs.at(-1)?.chainId,
        sourceAddress: read.quote.sourceAddress,
        destinationAddress: read.quote.destinationAddress,
        sendAmountUsdc: read.quote.sendAmountUsdc,
        totalDebitUsdc: read.quote.totalDebitUsdc,
        expectedCopAmount: read.quote.expectedCopAmount,
        copAmountMin: read.quote.copAmountMin,
        burnTxHash: read.burnTxHash,
        createdAt: read.createdAt,
        updatedAt: read.updatedAt,
      });
    }
    const [, second, , fourth] = page.orders;
    expect(second?.status).toBe("BURNED");
    expect(fourth?.health).toBe("STUCK");
  });

  it("lists orders made before their summaries' facts were kept the same way, once migration 0037 wrote them", async () => {
    const before = await list(tenant);
    // The migration's backfill, run again over these orders: their facts as Postgres makes them from the quotes.
    const migration = readFileSync(
      new URL("../../schema/migrations/0037_order_summary_facts.sql", import.meta.url),
      "utf8",
    );
    const backfill = migration.split("--> statement-breakpoint").find((part) => part.includes("UPDATE"));
    if (!backfill) throw new Error("the migration has no backfill");
    const facts = sql`select summary_facts as facts from settlement_orders where organization_id = ${tenant.organizationId} order by id`;
    const written = ((await h.database.db.execute(facts)) as unknown as { rows: Array<{ facts: string }> })
      .rows;
    await h.database.db.execute(sql.raw(backfill));
    const backfilled = ((await h.database.db.execute(facts)) as unknown as { rows: Array<{ facts: string }> })
      .rows;
    expect(backfilled.map((row) => JSON.parse(row.facts))).toEqual(
      written.map((row) => JSON.parse(row.facts)),
    );
    expect(backfilled.map((row) => row.facts)).not.toEqual(written.map((row) => row.facts));
    expect(await list(tenant)).toEqual(before);
  });

  it("answers whole orders, timelines included, to a request pinned at API-Version 2026-11-25", async () => {
    const pinned = { headers: { "API-Version": "2026-11-25" } };
    const response = await partnerRequest(h, tenant, LIST, pinned);
    expect(response.headers.get("api-version")).toBe("2026-11-25");
    const page = (await response.json()) as {
      orders: GetSettlementOrderResponse[];
      nextCursor: string | null;
    };
    expect(page.nextCursor).toBeNull();
    expect(page.orders.map((order) => order.orderId)).toEqual(ids);
    for (const order of page.orders) {
      const read = await partnerRequest(h, tenant, `${LIST}/${order.orderId}`, pinned);
      expect(order).toEqual(await read.json());
    }
    // Each order carries its own timeline, not another order's.
    const [first, second, , fourth] = page.orders;
    expect(first?.timeline.map((entry) => entry.kind)).toEqual(["ORDER_CREATED"]);
    expect(second?.timeline.map((entry) => entry.kind)).toEqual(["ORDER_CREATED", "BURN_VERIFIED"]);
    expect(second?.timeline[1]?.txHash).toBe(BURN_TX);
    expect(fourth?.timeline.map((entry) => entry.kind)).toEqual(["ORDER_CREATED", "STUCK"]);
  });

  it("pages by limit and cursor, with nextCursor null on the last page", async () => {
    const walked: string[][] = [];
    let page = await list(tenant, "?limit=2");
    walked.push(page.orders.map((order) => order.orderId));
    while (page.nextCursor) {
      expect(page.nextCursor).toBe(page.orders.at(-1)?.orderId);
      page = await list(tenant, `?limit=2&cursor=${page.nextCursor}`);
      walked.push(page.orders.map((order) => order.orderId));
    }
    expect(walked).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);

    // A page exactly as long as what is left is the last one.
    expect(await list(tenant, "?limit=5")).toMatchObject({ nextCursor: null });
    expect((await list(tenant, "?limit=4")).nextCursor).toBe(ids[3]);
    expect(await list(tenant, `?limit=1&cursor=${ids[3]}`)).toMatchObject({
      orders: [{ orderId: ids[4] }],
      nextCursor: null,
    });
    expect(await list(tenant, `?cursor=${ids[4]}`)).toEqual({ orders: [], nextCursor: null });
  });

  it("filters by status", async () => {
    expect((await list(tenant, "?status=BURNED")).orders.map((order) => order.orderId)).toEqual([ids[1]]);
    expect((await list(tenant, "?status=CREATED")).orders.map((order) => order.orderId)).toEqual([
      ids[0],
      ids[2],
      ids[3],
      ids[4],
    ]);
    expect(await list(tenant, "?status=DELIVERED")).toEqual({ orders: [], nextCursor: null });
    // Filters and paging combine: the cursor walks the filtered list.
    const page = await list(tenant, "?status=CREATED&limit=2");
    expect(page.orders.map((order) => order.orderId)).toEqual([ids[0], ids[2]]);
    expect(page.nextCursor).toBe(ids[2]);
    expect(
      (await list(tenant, `?status=CREATED&limit=2&cursor=${page.nextCursor}`)).orders.map((o) => o.orderId),
    ).toEqual([ids[3], ids[4]]);
  });

  it("filters by creation time, at or after `since`, in any offset", async () => {
    const all = (await list(tenant)).orders;
    const third = all[2];
    if (!third) throw new Error("no third order");
    const since = (await list(tenant, `?since=${encodeURIComponent(third.createdAt)}`)).orders;
    expect(since.map((order) => order.orderId)).toEqual(ids.slice(2));

    // The same instant written in Bogotá time.
    const bogota = new Date(Date.parse(third.createdAt) - 5 * 3_600_000).toISOString().replace("Z", "-05:00");
    expect(
      (await list(tenant, `?since=${encodeURIComponent(bogota)}`)).orders.map((order) => order.orderId),
    ).toEqual(ids.slice(2));

    // One millisecond later leaves the third out.
    const after = new Date(Date.parse(third.createdAt) + 1).toISOString();
    expect((await list(tenant, `?since=${after}`)).orders.map((order) => order.orderId)).toEqual(
      ids.slice(3),
    );
    expect(
      (await list(tenant, `?since=${after}&status=CREATED`)).orders.map((order) => order.orderId),
    ).toEqual(ids.slice(3));
    const future = new Date(Date.parse(all.at(-1)?.createdAt ?? "") + 1).toISOString();
    expect(await list(tenant, `?since=${future}`)).toEqual({ orders: [], nextCursor: null });
  });

  it("reads a page of summaries in one statement, and of whole orders in two, whatever its size", async () => {
    // The request's own log is written after the response is sent: not the page's work.
    const beyondAuthentication = () =>
      h.queries.filter((sql) => !/"api_keys"/.test(sql) && !/^insert into "request_logs"/.test(sql));
    for (const limit of [1, 5]) {
      h.queries.length = 0;
      expect((await list(tenant, `?limit=${limit}`)).orders).toHaveLength(limit);
      const statements = beyondAuthentication();
      expect(statements, `limit=${limit}`).toHaveLength(1);
      expect(statements[0]).toMatch(/from "settlement_orders"/);
      // Neither the burn plan nor the legs leave the database whole.
      expect(statements[0]).not.toMatch(/"settlement_orders"\."execution",|"settlement_quotes"\."legs",/);

      h.queries.length = 0;
      const whole = await partnerRequest(h, tenant, `${LIST}?limit=${limit}`, {
        headers: { "API-Version": "2026-11-25" },
      });
      expect(((await whole.json()) as { orders: unknown[] }).orders).toHaveLength(limit);
      const wholeStatements = beyondAuthentication();
      expect(wholeStatements, `limit=${limit}, 2026-11-25`).toHaveLength(2);
      expect(wholeStatements[0]).toMatch(/from "settlement_orders"/);
      expect(wholeStatements[1]).toMatch(/from "settlement_events"/);
    }
    // An empty page of whole orders has no timelines to read.
    h.queries.length = 0;
    const empty = await partnerRequest(h, tenant, `${LIST}?status=DELIVERED`, {
      headers: { "API-Version": "2026-11-25" },
    });
    expect(await empty.json()).toEqual({ orders: [], nextCursor: null });
    expect(beyondAuthentication()).toHaveLength(1);
  });
});

describe("listing settlement orders: bad queries", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(h, "Bad queries");
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=501", "limit"],
    ["limit=-1", "limit"],
    ["limit=1.5", "limit"],
    ["limit=ten", "limit"],
    ["status=LOST", "status"],
    ["status=created", "status"],
    ["status=", "status"],
    ["since=yesterday", "since"],
    ["since=2026-11-22", "since"],
    ["since=2026-11-22T12:00:00", "since"],
    ["since=0000-01-01T00:00:00Z", "since"],
    ["cursor=evt_01KAZ6XQ4R0000000000000000", "cursor"],
    ["cursor=ord_short", "cursor"],
  ])("refuses %s with 400 INVALID_REQUEST naming the %s field", async (query, field) => {
    const error = await errorOf(await partnerRequest(h, tenant, `${LIST}?${query}`), 400);
    expect(error.code).toBe("INVALID_REQUEST");
    expect(error.problems?.map((problem) => problem.field)).toEqual([`query.${field}`]);
  });

  it("accepts the largest page, 500", async () => {
    expect(await list(tenant, "?limit=500")).toEqual({ orders: [], nextCursor: null });
  });
});

describePartnerRouteSecurity(`GET ${LIST}`, () => h, { method: "GET", path: () => LIST });

describe("orders are the organization's own", () => {
  it("lists none of another organization's orders, by page, filter or cursor", async () => {
    const owner = await createTenant(h, "Owner");
    const other = await createTenant(h, "Other");
    const before = "ord_00000000000000000000000000";
    const owned = [await placeOrder(owner, "own-1"), await placeOrder(owner, "own-2")];

    expect((await list(owner)).orders.map((order) => order.orderId)).toEqual(owned);
    for (const query of [
      "",
      "?status=CREATED",
      "?limit=500",
      `?cursor=${before}`,
      "?since=2000-01-01T00:00:00Z",
    ]) {
      expect(await list(other, query), query).toEqual({ orders: [], nextCursor: null });
    }

    // The other organization's own order is all it sees, and the owner never sees it.
    const theirs = await placeOrder(other, "other-1");
    expect((await list(other)).orders.map((order) => order.orderId)).toEqual([theirs]);
    expect((await list(owner)).orders.map((order) => order.orderId)).toEqual(owned);
    expect(await list(owner, `?cursor=${owned[1]}`)).toEqual({ orders: [], nextCursor: null });
  }, 60_000);
});
