import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { createOrder, createQuote, enableBurnPlan, partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/**
 * SQL statements per request. A partner request first resolves its key: one indexed lookup, which
 * also reads the organization's settings, or none while the app resolved the key less than
 * CALLER_CACHE_MS ago (the warm-up request did). These counts are what the operation adds.
 */
describe("database round trips per request", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    // Warm the key's last-use stamp, so no request below also refreshes it.
    await partnerRequest(h, tenant, "/api/integrations/sandbox/network");
  }, 60_000);
  afterAll(() => h.close());

  // The request's own log (request_logs) is written after the response is sent: not the request's work.
  const beyondAuthentication = () =>
    h.queries.filter((sql) => !/from "api_keys"/.test(sql) && !/^insert into "request_logs"/.test(sql));

  // Screening (docs/compliance.md) reads the deny list in the quote's and the order's insert itself
  // (the row is written only while neither party is listed); an organization without volume limits
  // reads nothing more.
  const SCREENED_INSERT = (table: string) =>
    new RegExp(
      `^insert into "${table}" .* select .* where not exists \\(select 1 from "denied_addresses"`,
      "s",
    );

  it("quote creation is one statement, the write that reads the deny list; the key, resolved moments ago, and the price book's fresh entries cost none", async () => {
    // The first quote fills the price book (docs/pricing.md); the next reads the isolate's copy.
    await createQuote(h, tenant);
    h.queries.length = 0;
    await createQuote(h, tenant);
    expect(h.queries.filter((sql) => /from "api_keys"/.test(sql))).toHaveLength(0);
    const statements = beyondAuthentication();
    expect(statements, statements.join("\n")).toHaveLength(1);
    expect(statements[0]).toMatch(SCREENED_INSERT("settlement_quotes"));
  });

  it("order creation is two: the order's read, one write that reads the deny list; a replay is the read alone", async () => {
    const quote = await createQuote(h, tenant);
    h.queries.length = 0;
    expect((await createOrder(h, tenant, quote.quoteId, "rt-1")).status).toBe(201);
    const statements = beyondAuthentication();
    expect(statements, statements.join("\n")).toHaveLength(2);
    expect(statements[0]).toMatch(/^select /);
    expect(statements[1]).toMatch(SCREENED_INSERT("settlement_orders"));

    h.queries.length = 0;
    expect((await createOrder(h, tenant, quote.quoteId, "rt-1")).status).toBe(201);
    expect(beyondAuthentication()).toHaveLength(1);
  });

  it("order read is one statement", async () => {
    const quote = await createQuote(h, tenant);
    const { orderId } = await bodyOf(
      await createOrder(h, tenant, quote.quoteId, "rt-2"),
      createOrderRoute,
      201,
    );
    h.queries.length = 0;
    expect((await partnerRequest(h, tenant, `/api/integrations/settlements/orders/${orderId}`)).status).toBe(
      200,
    );
    expect(beyondAuthentication()).toHaveLength(1);
    // The key resolved moments ago costs nothing; after the response, the request's log is written.
    await h.settled();
    expect(h.queries.filter((sql) => !/^insert into "request_logs"/.test(sql))).toHaveLength(1);
    expect(h.queries.filter((sql) => /^insert into "request_logs"/.test(sql))).toHaveLength(1);
  });

  it("a fresh burn report is three statements (the order with its timeline and the hash's owner; the move with its timeline entry; the event with its endpoints) besides its chain reads; a replay is the read alone", async () => {
    await enableBurnPlan(h, tenant);
    const order = await placeOrder(h, tenant);
    const hash = await sendPlan(h, order);
    h.queries.length = 0;
    expect((await submitBurn(h, tenant, order.orderId, hash)).status).toBe(200);
    // The last two share a transaction (its BEGIN and COMMIT are logged on node-postgres only).
    const statements = beyondAuthentication().filter((sql) => !/^(begin|commit)$/.test(sql));
    expect(statements, statements.join("\n")).toHaveLength(3);
    expect(statements[0]).toMatch(
      /^select .*"burn_tx_hash" = \$\d+ and "held"\."organization_id" = "settlement_orders"\."organization_id" limit 1/,
    );
    expect(statements[1]).toMatch(
      /^with "timeline_entry" as \(insert into "settlement_events".*\) update "settlement_orders"/,
    );
    expect(statements[2]).toMatch(
      /^with "outbox" as \(insert into "webhook_events".*\) select .* from "webhook_endpoints"/,
    );

    h.queries.length = 0;
    expect((await submitBurn(h, tenant, order.orderId, hash)).status).toBe(200);
    expect(beyondAuthentication()).toHaveLength(1);
  });
});
