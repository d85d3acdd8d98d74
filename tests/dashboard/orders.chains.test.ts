import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupedDecimal } from "../../functions/dashboard/format";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { route as createQuoteRoute } from "../../functions/settlement/create-quote";
import { route as getOrder } from "../../functions/settlement/get-order";
import { route as listOrders } from "../../functions/settlement/list-orders";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { addMember, type DashboardClient, signedInClient } from "../harness/dashboard";
import {
  createOrder,
  createQuote,
  DESTINATION_ADDRESS,
  enableBurnPlan,
  partnerRequest,
  SOURCE_ADDRESS,
} from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

// The orders pages in-process: seeded through the partner API (one order taken to DELIVERED by the
// real flow on the sandbox chains), read by members signed in with the emailed code.

const DAY = 24 * 60 * 60 * 1000;
const CHAIN_NAMES: Record<number, string> = {
  31331: "Sandbox Source",
  31332: "Sandbox Intermediate",
  31333: "Sandbox Destination",
  31334: "Sandbox Source B",
};

let h: Harness;
let a: Tenant;
let b: Tenant;
let memberA: DashboardClient;
let memberB: DashboardClient;
/** A's orders oldest first: the delivered one, two more that day, two the next day (the last from B). */
const ids = { delivered: "", dayOne: [] as string[], dayTwo: [] as string[], b: "" };
let dayTwo = "";

beforeAll(async () => {
  h = await createHarness({ chains: true, identity: true });
  a = await createTenant(h, "Orders A");
  b = await createTenant(h, "Orders B");
  await enableBurnPlan(h, a);
  await addMember(h, a.organizationId, "ops@orders-a.example");
  await addMember(h, b.organizationId, "ops@orders-b.example");

  const placed = await placeOrder(h, a, undefined, "987.65");
  const burn = await sendPlan(h, placed);
  expect((await submitBurn(h, a, placed.orderId, burn)).status).toBe(200);
  for (let poll = 0; poll < 30 && (await readOrder(placed.orderId)).status !== "DELIVERED"; poll++) {
    await h.jobs.drain();
    h.clock.advance(5_000);
  }
  expect((await readOrder(placed.orderId)).status).toBe("DELIVERED");
  ids.delivered = placed.orderId;
  for (let i = 0; i < 2; i++) ids.dayOne.push(await newOrder(a));
  h.clock.advance(DAY);
  dayTwo = h.clock.now().toISOString().slice(0, 10);
  ids.dayTwo.push(await newOrder(a), await newOrder(a, 31334));
  ids.b = await newOrder(b);

  memberA = await signedInClient(h, "ops@orders-a.example");
  memberB = await signedInClient(h, "ops@orders-b.example");
}, 180_000);
afterAll(() => h?.close());

async function readOrder(orderId: string, tenant = a) {
  const response = await partnerRequest(h, tenant, `/api/integrations/settlements/orders/${orderId}`);
  return bodyOf(response, getOrder, 200);
}

async function newOrder(tenant: Tenant, sourceChain?: number): Promise<string> {
  h.clock.advance(1_000);
  const quote =
    sourceChain === undefined
      ? await createQuote(h, tenant)
      : await bodyOf(
          await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
            method: "POST",
            body: {
              sendAmountUsdc: "100",
              sourceAddress: SOURCE_ADDRESS,
              destinationAddress: DESTINATION_ADDRESS,
              sourceChain,
            },
          }),
          createQuoteRoute,
          201,
        );
  const response = await createOrder(h, tenant, quote.quoteId, `dash-${quote.quoteId}`);
  return (await bodyOf(response, createOrderRoute, 201)).orderId;
}

/** The ids of the order rows a page lists, in order. */
const listedIds = (html: string) => [...html.matchAll(/<tr data-order-id="([^"]+)"/g)].map((m) => m[1] ?? "");

/** One order's table row. */
function rowOf(html: string, orderId: string): string {
  const start = html.indexOf(`<tr data-order-id="${orderId}"`);
  expect(start, `${orderId} is listed`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</tr>", start));
}

/** The "next" link's address, as a browser would follow it. */
const nextLink = (html: string) => html.match(/<a href="([^"]+)" rel="next">/)?.[1]?.replaceAll("&amp;", "&");

const orders = (query = "") => `/dashboard/orders?integration=${a.integrationId}${query}`;

/** The ids the API lists for the same query, every page. */
async function apiIds(query: string): Promise<string[]> {
  const response = await partnerRequest(h, a, `/api/integrations/settlements/orders?limit=500${query}`);
  return (await bodyOf(response, listOrders, 200)).orders.map((o) => o.orderId);
}

describe("the orders list", () => {
  it("lists the organization's orders oldest first, each with its status, amounts with token and separators, chains and a link", async () => {
    const html = await memberA.page(orders());
    const all = [ids.delivered, ...ids.dayOne, ...ids.dayTwo];
    expect(listedIds(html)).toEqual(all);
    expect(listedIds(html)).toEqual(await apiIds(""));

    const delivered = await readOrder(ids.delivered);
    const row = rowOf(html, ids.delivered);
    expect(row).toContain(`href="/dashboard/orders/${ids.delivered}?integration=${a.integrationId}"`);
    expect(row).toContain('<span class="pill good">DELIVERED</span>');
    // Spanish by default: dots group thousands, a comma marks decimals, the token follows.
    expect(row).toContain("987,65 USDC");
    expect(row).toContain(`${groupedDecimal(delivered.quote.copAmountMin, "es")} COPm`);
    expect(groupedDecimal(delivered.quote.copAmountMin, "es")).toMatch(/^\d{1,3}(\.\d{3})+,\d+$/);
    expect(row).toContain("Sandbox Source (31331)");
    expect(row).toContain("Sandbox Destination (31333)");
    expect(row).toContain(`<time datetime="${delivered.createdAt}">`);
    expect(rowOf(html, ids.dayOne[0] as string)).toContain('<span class="pill wait">CREATED</span>');
    expect(rowOf(html, ids.dayOne[0] as string)).toContain("100 USDC");
    // Each order's own source chain, as its execution names it.
    const fromB = rowOf(html, ids.dayTwo[1] as string);
    expect(fromB).toContain("Sandbox Source B (31334)");
    expect(fromB).not.toContain("Sandbox Source (31331)");

    const english = await memberA.page(orders("&lang=en"));
    expect(rowOf(english, ids.delivered)).toContain("987.65 USDC");
    expect(rowOf(english, ids.delivered)).toContain(
      `${groupedDecimal(delivered.quote.copAmountMin, "en")} COPm`,
    );
    expect(english).toContain("<caption>Orders</caption>");
    // The switch is remembered; switch back for the other tests.
    expect(await memberA.page(orders("&lang=es"))).toContain("<caption>Órdenes</caption>");
  });

  it("has no integration chooser, as the API lists every integration's orders, and says so; the navigation keeps the integration", async () => {
    for (const path of [orders(), `/dashboard/orders/${ids.delivered}?integration=${a.integrationId}`]) {
      const html = await memberA.page(path);
      expect(html, path).not.toContain('<select id="integration"');
      expect(html, path).toContain(
        '<p class="note">La lista tiene las órdenes de todas las integraciones de la organización, como las lista la API.</p>',
      );
      expect(html, path).toContain(`<a href="/dashboard/swaps?integration=${a.integrationId}">`);
    }
    const english = await memberA.page(orders("&lang=en"));
    expect(english).toContain(
      "The list holds the orders of every integration of the organization, as the API lists them.",
    );
    await memberA.page(orders("&lang=es"));
  });

  it("filters by status and by the since date exactly as the API does", async () => {
    const deliveredOnly = await memberA.page(orders("&status=DELIVERED"));
    expect(listedIds(deliveredOnly)).toEqual([ids.delivered]);
    expect(deliveredOnly).toMatch(/<option value="DELIVERED" selected="">DELIVERED<\/option>/);

    const created = await memberA.page(orders("&status=CREATED"));
    expect(listedIds(created)).toEqual([...ids.dayOne, ...ids.dayTwo]);
    expect(listedIds(created)).toEqual(await apiIds("&status=CREATED"));

    // The date field's day starts at midnight UTC: the second day's orders only.
    const since = await memberA.page(orders(`&since=${dayTwo}`));
    expect(listedIds(since)).toEqual(ids.dayTwo);
    expect(since).toContain(`name="since" type="date" value="${dayTwo}"`);
    expect(listedIds(since)).toEqual(await apiIds(`&since=${dayTwo}T00:00:00Z`));
    // An instant, as the API takes it, works too; both filters combine.
    const both = await memberA.page(orders(`&since=${dayTwo}T00:00:00%2B00:00&status=DELIVERED`));
    expect(listedIds(both)).toEqual([]);
    expect(both).toContain("No hay órdenes con estos filtros.");
  });

  it("pages with the verb's cursor: next carries the cursor and the filters, the last page has none, first page goes back", async () => {
    const first = await memberA.page(orders("&status=CREATED&limit=3"));
    expect(listedIds(first)).toEqual([...ids.dayOne, ids.dayTwo[0]]);
    expect(first).not.toContain(">Primera página</a>");
    const next = nextLink(first);
    expect(next).toBe(
      `/dashboard/orders?integration=${a.integrationId}&status=CREATED&limit=3&cursor=${ids.dayTwo[0]}`,
    );
    // The form keeps the page size the address named.
    expect(first).toContain('<input type="hidden" name="limit" value="3"');

    const second = await memberA.page(next as string);
    expect(listedIds(second)).toEqual([ids.dayTwo[1]]);
    expect(nextLink(second)).toBeUndefined();
    const back = second.match(/<a href="([^"]+)">Primera página<\/a>/)?.[1]?.replaceAll("&amp;", "&");
    expect(back).toBe(`/dashboard/orders?integration=${a.integrationId}&status=CREATED&limit=3`);
    expect(listedIds(await memberA.page(back as string))).toEqual(listedIds(first));

    // Without filters, two a page: three pages cover every order once, in order.
    const seen: string[] = [];
    let path: string | undefined = orders("&limit=2");
    for (let pages = 0; path && pages < 5; pages++) {
      const html = await memberA.page(path);
      seen.push(...listedIds(html));
      path = nextLink(html);
    }
    expect(seen).toEqual([ids.delivered, ...ids.dayOne, ...ids.dayTwo]);
  });

  it("answers a bad filter with 400 and a message naming it, never a 500, keeping the filter form", async () => {
    const cases: Array<[string, string]> = [
      ["&since=yesterday", "«Desde» debe ser una fecha"],
      ["&since=2026-02-31", "«Desde» debe ser una fecha"],
      ["&status=LOST", "«Estado» no es uno de los estados"],
      ["&status=delivered", "«Estado» no es uno de los estados"],
      ["&limit=501", "«limit» debe ser un número entero de 1 a 500"],
      ["&limit=0", "«limit» debe ser un número entero de 1 a 500"],
      ["&cursor=nope", "el cursor no es de esta lista"],
      ["&cursor=po_01KAZ6XQ4R8N2M5V7B9C1D3F5G", "el cursor no es de esta lista"],
    ];
    for (const [query, hint] of cases) {
      const response = await memberA.get(orders(query));
      const html = await response.text();
      expect(response.status, query).toBe(400);
      expect(html, query).toContain('<p class="error" role="alert" data-code="INVALID_REQUEST">');
      expect(html, query).toContain(`La solicitud no es válida. Revisa el filtro: ${hint}`);
      expect(html, query).toContain('<form method="get" action="/dashboard/orders" class="filters"');
      expect(listedIds(html), query).toEqual([]);
    }
    const english = await memberA.get(orders("&since=2026-13-01&status=LOST&lang=en"));
    expect(english.status).toBe(400);
    const text = await english.text();
    expect(text).toContain("The request is not valid. Check the filter: “Status”");
    expect(text).toContain("“Since” must be a date");
    await memberA.page(orders("&lang=es"));
  });
});

describe("an order's page", () => {
  it("shows the order's facts, every transaction hash with its chain's name, and the timeline in order with times", async () => {
    const order = await readOrder(ids.delivered);
    const html = await memberA.page(`/dashboard/orders/${ids.delivered}?integration=${a.integrationId}`);
    expect(html).toContain(`<h1>Orden ${ids.delivered}</h1>`);
    expect(html).toContain('<span class="pill good">DELIVERED</span>');
    expect(html).toContain("<code>DELIVERED_TO_DESTINATION</code>");
    expect(html).toContain("987,65 USDC");
    expect(html).toContain(`${groupedDecimal(order.quote.totalDebitUsdc, "es")} USDC`);
    expect(html).toContain(`${groupedDecimal(order.quote.expectedCopAmount, "es")} COPm`);

    // Every hash the API's view holds: the burn and each leg's, each with its chain.
    const hashes = order.timeline.filter((entry) => entry.txHash);
    expect(hashes.map((entry) => entry.kind)).toEqual([
      "BURN_VERIFIED",
      "ATTESTED",
      "FORWARDED_MINT",
      "ROUTE_SENT",
      "ROUTE_COMPLETED",
      "EXCHANGED",
      "DELIVERED",
    ]);
    expect(order.burnTxHash).toBe(hashes[0]?.txHash);
    const table = html.slice(html.indexOf('aria-labelledby="order-transactions"'), html.indexOf("</table>"));
    const tableRows = table.split("<tr>").slice(2);
    expect(tableRows).toHaveLength(hashes.length);
    hashes.forEach((entry, index) => {
      const row = tableRows[index] as string;
      expect(row).toContain(`<span class="mono">${entry.txHash}</span>`);
      expect(row).toContain(`${CHAIN_NAMES[entry.chainId as number]} (${entry.chainId})`);
    });
    expect(tableRows[0]).toContain("Quema de USDC verificada");
    expect(tableRows.at(-1)).toContain("COPm entregados");

    // The timeline: one item per entry, in the API's order, each with its time.
    const items = [...html.matchAll(/<li data-kind="([A-Z_]+)"><time datetime="([^"]+)">/g)];
    expect(items.map((m) => m[1])).toEqual(order.timeline.map((entry) => entry.kind));
    expect(items.map((m) => m[2])).toEqual(order.timeline.map((entry) => entry.at));
  });

  it("shows the source chain the order burns on, by name and id, in both languages", async () => {
    const path = (id: string, lang: string) =>
      `/dashboard/orders/${id}?integration=${a.integrationId}&lang=${lang}`;
    const delivered = await memberA.page(path(ids.delivered, "es"));
    expect(delivered).toContain("<dt>Cadena de origen</dt><dd>Sandbox Source (31331)</dd>");
    const order = await readOrder(ids.dayTwo[1] as string);
    expect(order.execution).toMatchObject({ chain: "Sandbox Source B", chainId: 31334 });
    expect(await memberA.page(path(order.orderId, "es"))).toContain(
      "<dt>Cadena de origen</dt><dd>Sandbox Source B (31334)</dd>",
    );
    expect(await memberA.page(path(order.orderId, "en"))).toContain(
      "<dt>Source chain</dt><dd>Sandbox Source B (31334)</dd>",
    );
    await memberA.page(path(order.orderId, "es"));
  });

  it("shows an order with no transaction yet, saying so", async () => {
    const html = await memberA.page(`/dashboard/orders/${ids.dayOne[0]}?integration=${a.integrationId}`);
    expect(html).toContain("Aún no hay transacciones: el usuario no ha quemado USDC.");
    expect([...html.matchAll(/<li data-kind="([A-Z_]+)"/g)].map((m) => m[1])).toEqual(["ORDER_CREATED"]);
  });

  it("is the 404 page for an id that does not exist", async () => {
    const missing = await memberA.get(
      `/dashboard/orders/ord_00000000000000000000000000?integration=${a.integrationId}`,
    );
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("No existe en esta integración.");
  });
});

describe("another organization's member", () => {
  it("never sees the rows and gets the 404 page for the order, whichever integration the address names", async () => {
    const list = await memberB.page("/dashboard/orders");
    expect(listedIds(list)).toEqual([ids.b]);
    for (const id of [ids.delivered, ...ids.dayOne, ...ids.dayTwo]) expect(list).not.toContain(id);
    const order = await readOrder(ids.delivered);

    for (const path of [
      `/dashboard/orders/${ids.delivered}`,
      `/dashboard/orders/${ids.delivered}?integration=${b.integrationId}`,
      `/dashboard/orders/${ids.delivered}?integration=${a.integrationId}`,
      `/dashboard/orders?integration=${a.integrationId}`,
    ]) {
      const response = await memberB.get(path);
      const html = await response.text();
      expect(response.status, path).toBe(404);
      expect(html, path).toContain("No existe en esta integración.");
      for (const entry of order.timeline) if (entry.txHash) expect(html).not.toContain(entry.txHash);
      expect(html).not.toContain(ids.dayOne[0]);
    }
    // And A's member reads B's order as missing too.
    expect((await memberA.get(`/dashboard/orders/${ids.b}`)).status).toBe(404);
  });

  it("signed out, nobody reads the pages: they send to sign-in", async () => {
    const anonymous = await memberA.get("/dashboard/orders", { cookie: "" });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/dashboard/sign-in");
  });
});
