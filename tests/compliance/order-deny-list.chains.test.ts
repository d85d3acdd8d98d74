import { eq, sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { route as updateOrganizationRoute } from "../../functions/tenancy/admin-update-organization";
import { noneDenied } from "../../lib/compliance";
import { settlementOrders } from "../../schema";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import {
  createOrder,
  enableBurnPlan,
  partnerRequest,
  SOURCE_ADDRESS,
  settlementSuite,
} from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

/**
 * An order's deny-list screening is its insert's own condition (noneDenied): the order is written
 * only if neither party is listed when the insert runs, and a refused insert answers as screening
 * always did, 403 SANCTIONED_ADDRESS naming the listed parties' fields, with nothing stored; with or
 * without volume limits (the insert then runs in their transaction). The oracle's half still runs
 * before the insert (tests/compliance/screening.chains.test.ts).
 */

let h: Harness;
let tenant: Tenant;

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  ({ h, tenant } = await settlementSuite());
  // Warm the key's last-use stamp, so the statements counted below are the order's own.
  await partnerRequest(h, tenant, "/api/integrations/sandbox/network");
}, 120_000);

afterAll(async () => {
  await h?.close();
});

async function quoteFor(t: Tenant, sourceAddress: string, destinationAddress: string): Promise<string> {
  const quoted = await partnerRequest(h, t, "/api/integrations/settlements/quotes", {
    method: "POST",
    body: { sendAmountUsdc: "100", sourceAddress, destinationAddress },
  });
  expect(quoted.status, await quoted.clone().text()).toBe(201);
  return ((await quoted.json()) as { quoteId: string }).quoteId;
}

async function deny(address: string) {
  const denied = await adminRequest(h, "/admin/compliance/denied-addresses", {
    method: "POST",
    body: { address, reason: "order screening test" },
  });
  expect(denied.status).toBe(201);
}

async function allow(address: string) {
  const lifted = await adminRequest(h, `/admin/compliance/denied-addresses/${address}?reason=lifted`, {
    method: "DELETE",
  });
  expect(lifted.status).toBe(200);
}

async function refusedFields(response: Response): Promise<string[]> {
  const error = await errorOf(response, 403);
  expect(error.code).toBe("SANCTIONED_ADDRESS");
  expect(error.stage).toBe("CREATED");
  return (error.problems ?? []).map((problem) => problem.field);
}

async function ordersOf(quoteId: string) {
  return h.database.db
    .select({ id: settlementOrders.id })
    .from(settlementOrders)
    .where(eq(settlementOrders.quoteId, quoteId));
}

// The request's key lookup and its own log are not the order's statements.
const orderStatements = () =>
  h.queries.filter(
    (query) =>
      !/from "api_keys"/.test(query) &&
      !/^insert into "request_logs"/.test(query) &&
      !/^(begin|commit|rollback)$/i.test(query),
  );

describe("an order's parties on the deny list", () => {
  it("is two statements: the read, and the insert that reads the deny list itself", async () => {
    const quoteId = await quoteFor(tenant, SOURCE_ADDRESS, fresh());
    h.queries.length = 0;
    const created = await createOrder(h, tenant, quoteId, `dl-plain-${quoteId}`);
    expect(created.status).toBe(201);
    const statements = orderStatements();
    expect(statements, statements.join("\n")).toHaveLength(2);
    expect(statements[0]).toMatch(/^select /);
    expect(statements[1]).toMatch(
      /^insert into "settlement_orders" .* select .* where not exists \(select 1 from "denied_addresses" where "denied_addresses"\."address" in \(lower\(\$\d+\), lower\(\$\d+\)\) and "denied_addresses"\."removed_at" is null\) on conflict do nothing returning "id"$/,
    );
  });

  it("refuses the order of a quote whose destination was denied after the quote, naming it, and stores nothing", async () => {
    const destination = fresh();
    const quoteId = await quoteFor(tenant, SOURCE_ADDRESS, destination);
    // Listed in another case than the quote's: the list is compared lower-cased.
    await deny(destination.toLowerCase());
    h.queries.length = 0;
    const refused = await createOrder(h, tenant, quoteId, `dl-dest-${quoteId}`);
    expect(await refusedFields(refused)).toEqual(["body.destinationAddress"]);
    // The insert refused it; naming the field took one read of the list.
    const statements = orderStatements();
    expect(statements, statements.join("\n")).toHaveLength(3);
    expect(statements[1]).toMatch(/^insert into "settlement_orders"/);
    expect(statements[2]).toMatch(/^select "address" from "denied_addresses"/);
    expect(await ordersOf(quoteId)).toEqual([]);

    // Lifted, the same quote orders under the same key: the refusal kept nothing.
    await allow(destination);
    const created = await createOrder(h, tenant, quoteId, `dl-dest-${quoteId}`);
    expect((await bodyOf(created, createOrderRoute, 201)).quote.quoteId).toBe(quoteId);
    expect(await ordersOf(quoteId)).toHaveLength(1);
  });

  it("names both parties when both are denied, and a source denied alone", async () => {
    const source = fresh();
    const destination = fresh();
    const both = await quoteFor(tenant, source, destination);
    const sourceOnly = await quoteFor(tenant, source, fresh());
    await deny(source);
    await deny(destination);
    expect(await refusedFields(await createOrder(h, tenant, both, `dl-both-${both}`))).toEqual([
      "body.sourceAddress",
      "body.destinationAddress",
    ]);
    expect(await refusedFields(await createOrder(h, tenant, sourceOnly, `dl-src-${sourceOnly}`))).toEqual([
      "body.sourceAddress",
    ]);
    expect(await ordersOf(both)).toEqual([]);
    expect(await ordersOf(sourceOnly)).toEqual([]);
  });

  it("names a party the oracle lists and one the deny list lists together, as screening did", async () => {
    const source = fresh();
    const destination = fresh();
    const quoteId = await quoteFor(tenant, source, destination);
    const sanctioned = await partnerRequest(h, tenant, "/api/integrations/sandbox/sanctions", {
      method: "POST",
      body: { address: source, listed: true },
    });
    expect(sanctioned.status).toBe(200);
    await deny(destination);
    expect(await refusedFields(await createOrder(h, tenant, quoteId, `dl-mixed-${quoteId}`))).toEqual([
      "body.sourceAddress",
      "body.destinationAddress",
    ]);
    expect(await ordersOf(quoteId)).toEqual([]);
  });

  it("replays an order made before its party's listing, as before: a replay is not screened again", async () => {
    const destination = fresh();
    const quoteId = await quoteFor(tenant, SOURCE_ADDRESS, destination);
    const key = `dl-replay-${quoteId}`;
    const first = await createOrder(h, tenant, quoteId, key);
    expect(first.status).toBe(201);
    const answer = await first.text();
    await deny(destination);
    const again = await createOrder(h, tenant, quoteId, key);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(answer);
    // Another key for the ordered quote is still QUOTE_ALREADY_USED, not a screening refusal.
    expect((await errorOf(await createOrder(h, tenant, quoteId, `${key}-other`), 409)).code).toBe(
      "QUOTE_ALREADY_USED",
    );
  });

  it("refuses and stores nothing in the volume limits' transaction too, and orders an unlisted pair there", async () => {
    const limited = await createTenant(h, "Limited deny list");
    await enableBurnPlan(h, limited);
    await bodyOf(
      await adminRequest(h, `/admin/organizations/${limited.organizationId}`, {
        method: "PATCH",
        body: { perUserDailyLimitUsd: "1000000", organizationDailyLimitUsd: "1000000" },
      }),
      updateOrganizationRoute,
      200,
    );
    const destination = fresh();
    const refusedQuote = await quoteFor(limited, SOURCE_ADDRESS, destination);
    await deny(destination);
    h.queries.length = 0;
    const refused = await createOrder(h, limited, refusedQuote, `dl-limited-${refusedQuote}`);
    expect(await refusedFields(refused)).toEqual(["body.destinationAddress"]);
    expect(orderStatements().some((query) => /^insert into "settlement_orders"/.test(query))).toBe(true);
    expect(await ordersOf(refusedQuote)).toEqual([]);

    const quoteId = await quoteFor(limited, SOURCE_ADDRESS, fresh());
    const created = await createOrder(h, limited, quoteId, `dl-limited-${quoteId}`);
    expect((await bodyOf(created, createOrderRoute, 201)).quote.quoteId).toBe(quoteId);
    // Twice in a transaction: each builds its insert on that transaction's connection.
    const second = await quoteFor(limited, SOURCE_ADDRESS, fresh());
    expect((await createOrder(h, limited, second, `dl-limited-${second}`)).status).toBe(201);
    // A replay answers the same bytes.
    const replay = await createOrder(h, limited, quoteId, `dl-limited-${quoteId}`);
    expect(replay.status).toBe(201);
  });
});

describe("noneDenied", () => {
  it("holds while none of its addresses, values or parameters in any case, is actively listed", async () => {
    const listed = fresh();
    const lifted = fresh();
    const clean = fresh();
    await deny(listed);
    await deny(lifted);
    await allow(lifted);
    const holds = async (condition: ReturnType<typeof noneDenied>) => {
      const result = await h.database.db.execute<{ holds: boolean }>(sql`select (${condition}) as "holds"`);
      return (result as unknown as { rows: { holds: boolean }[] }).rows[0]?.holds;
    };
    expect(await holds(noneDenied([]))).toBe(true);
    expect(await holds(noneDenied([clean, lifted]))).toBe(true);
    expect(await holds(noneDenied([clean, listed.toUpperCase().replace("0X", "0x")]))).toBe(false);
    expect(await holds(noneDenied([sql`${listed}`]))).toBe(false);
    expect(await holds(noneDenied([sql`${clean}`, sql`${lifted}`]))).toBe(true);
  });
});
