import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupedDecimal } from "../../functions/dashboard/format";
import { route as listPayouts } from "../../functions/payouts/list-payouts";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { addMember, type DashboardClient, signedInClient } from "../harness/dashboard";
import {
  approvedUser,
  confirmedPayout,
  createdPayout,
  GOOD_KEY,
  type PayoutView,
  readPayout,
} from "../harness/payouts";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

// The payouts pages in-process: payouts made through the partner API with real deposits on the
// sandbox destination chain and the local BRE-B provider, read by members signed in with the code.

const DAY = 24 * 60 * 60 * 1000;

let h: Harness;
let a: Tenant;
let b: Tenant;
let memberA: DashboardClient;
let memberB: DashboardClient;
let userAddress = "";
/** A's payouts oldest first: completed, two awaiting that day, one awaiting the next day. */
const ids = { completed: "", dayOne: [] as string[], dayTwo: "", b: "" };
let dayTwo = "";

beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true, identity: true });
  a = await createTenant(h, "Payouts A");
  b = await createTenant(h, "Payouts B");
  await addMember(h, a.organizationId, "ops@payouts-a.example");
  await addMember(h, b.organizationId, "ops@payouts-b.example");

  const user = await approvedUser(h, a, { usdc: "100" });
  userAddress = user.address;
  const { payoutId } = await confirmedPayout(h, a, user, { destinationCop: "100000" });
  await h.jobs.drain(); // the job hands the payout to the provider
  h.clock.advance(2_000);
  await h.breb?.settle(); // the provider pays and calls back, signed
  expect((await readPayout(h, a, payoutId)).status).toBe("completed");
  ids.completed = payoutId;
  for (let i = 0; i < 2; i++) {
    h.clock.advance(1_000);
    ids.dayOne.push((await createdPayout(h, a, user, { destinationCop: "10000" })).payout.payoutId);
  }
  h.clock.advance(DAY);
  dayTwo = h.clock.now().toISOString().slice(0, 10);
  ids.dayTwo = (await createdPayout(h, a, user, { destinationCop: "10000" })).payout.payoutId;
  const bUser = await approvedUser(h, b, { usdc: "10" });
  ids.b = (await createdPayout(h, b, bUser, { destinationCop: "10000" })).payout.payoutId;

  memberA = await signedInClient(h, "ops@payouts-a.example");
  memberB = await signedInClient(h, "ops@payouts-b.example");
}, 180_000);
afterAll(() => h?.close());

async function read(payoutId: string): Promise<PayoutView> {
  return readPayout(h, a, payoutId);
}

const listedIds = (html: string) =>
  [...html.matchAll(/<tr data-payout-id="([^"]+)"/g)].map((m) => m[1] ?? "");

function rowOf(html: string, payoutId: string): string {
  const start = html.indexOf(`<tr data-payout-id="${payoutId}"`);
  expect(start, `${payoutId} is listed`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</tr>", start));
}

const nextLink = (html: string) => html.match(/<a href="([^"]+)" rel="next">/)?.[1]?.replaceAll("&amp;", "&");
const payouts = (query = "") => `/dashboard/payouts?integration=${a.integrationId}${query}`;

async function apiIds(query: string): Promise<string[]> {
  const response = await partnerRequest(h, a, `/api/integrations/breb/payouts?limit=500${query}`);
  return (await bodyOf(response, listPayouts, 200)).payouts.map((p) => p.payoutId);
}

describe("the payouts list", () => {
  it("lists the organization's payouts with status, pesos, the source amount and fee with token and separators, the masked key", async () => {
    const html = await memberA.page(payouts());
    expect(listedIds(html)).toEqual([ids.completed, ...ids.dayOne, ids.dayTwo]);
    expect(listedIds(html)).toEqual(await apiIds(""));

    const completed = await read(ids.completed);
    const row = rowOf(html, ids.completed);
    expect(row).toContain(`href="/dashboard/payouts/${ids.completed}?integration=${a.integrationId}"`);
    expect(row).toContain('<span class="pill good">completed</span>');
    expect(row).toContain("100.000 COP");
    expect(row).toContain(`${groupedDecimal(completed.sourceAmount, "es")} USDC`);
    expect(row).toContain(`${groupedDecimal(completed.serviceFee, "es")} USDC`);
    expect(groupedDecimal(completed.sourceAmount, "es")).toMatch(/^\d+,\d+$/);
    expect(row).toContain(completed.destination.breBKey);
    expect(completed.destination.breBKey).toBe("30••••••67");
    expect(html).not.toContain(GOOD_KEY);
    expect(rowOf(html, ids.dayTwo)).toContain('<span class="pill wait">awaiting_deposit</span>');
    expect(rowOf(html, ids.dayTwo)).toContain("10.000 COP");

    const english = await memberA.page(payouts("&lang=en"));
    expect(rowOf(english, ids.completed)).toContain("100,000 COP");
    expect(rowOf(english, ids.completed)).toContain(`${completed.sourceAmount} USDC`);
    await memberA.page(payouts("&lang=es"));
  });

  it("has no integration chooser, as the API lists every integration's payouts, and says so; the navigation keeps the integration", async () => {
    for (const path of [payouts(), `/dashboard/payouts/${ids.completed}?integration=${a.integrationId}`]) {
      const html = await memberA.page(path);
      expect(html, path).not.toContain('<select id="integration"');
      expect(html, path).toContain(
        '<p class="note">La lista tiene los pagos de todas las integraciones de la organización, como los lista la API.</p>',
      );
      expect(html, path).toContain(`<a href="/dashboard/swaps?integration=${a.integrationId}">`);
    }
    const english = await memberA.page(payouts("&lang=en"));
    expect(english).toContain(
      "The list holds the payouts of every integration of the organization, as the API lists them.",
    );
    await memberA.page(payouts("&lang=es"));
  });

  it("filters by status, since and the user's wallet exactly as the API does, and pages with its cursor", async () => {
    expect(listedIds(await memberA.page(payouts("&status=completed")))).toEqual([ids.completed]);
    const awaiting = await memberA.page(payouts("&status=awaiting_deposit"));
    expect(listedIds(awaiting)).toEqual([...ids.dayOne, ids.dayTwo]);
    expect(listedIds(awaiting)).toEqual(await apiIds("&status=awaiting_deposit"));
    expect(listedIds(await memberA.page(payouts(`&since=${dayTwo}`)))).toEqual([ids.dayTwo]);
    const byUser = await memberA.page(payouts(`&userAddress=${userAddress}`));
    expect(listedIds(byUser)).toHaveLength(4);
    expect(byUser).toContain(`name="userAddress" type="text"`);
    expect(byUser).toContain(`value="${userAddress}"`);
    const nobody = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
    expect(listedIds(await memberA.page(payouts(`&userAddress=${nobody}`)))).toEqual([]);

    const first = await memberA.page(payouts("&status=awaiting_deposit&limit=2"));
    expect(listedIds(first)).toEqual(ids.dayOne);
    const next = nextLink(first);
    expect(next).toBe(
      `/dashboard/payouts?integration=${a.integrationId}&status=awaiting_deposit&limit=2&cursor=${ids.dayOne[1]}`,
    );
    const second = await memberA.page(next as string);
    expect(listedIds(second)).toEqual([ids.dayTwo]);
    expect(nextLink(second)).toBeUndefined();
    expect(second).toContain(
      `<a href="/dashboard/payouts?integration=${a.integrationId}&amp;status=awaiting_deposit&amp;limit=2">Primera página</a>`,
    );
  });

  it("answers a bad filter with 400 and a message naming it, never a 500", async () => {
    const cases: Array<[string, string, string]> = [
      ["&since=yesterday", "INVALID_REQUEST", "«Desde» debe ser una fecha"],
      ["&status=done", "INVALID_REQUEST", "«Estado» no es uno de los estados"],
      ["&status=COMPLETED", "INVALID_REQUEST", "«Estado» no es uno de los estados"],
      [`&userAddress=${userAddress.toLowerCase()}`, "INVALID_USER_ADDRESS", "«Wallet del usuario» debe ser"],
      ["&limit=501", "INVALID_REQUEST", "«limit» debe ser un número entero de 1 a 500"],
      ["&cursor=ord_01KAZ6XQ4R0000000000000000", "INVALID_REQUEST", "el cursor no es de esta lista"],
    ];
    for (const [query, code, hint] of cases) {
      const response = await memberA.get(payouts(query));
      const html = await response.text();
      expect(response.status, query).toBe(400);
      expect(html, query).toContain(`<p class="error" role="alert" data-code="${code}">`);
      expect(html, query).toContain(`Revisa el filtro: ${hint}`);
      expect(listedIds(html), query).toEqual([]);
    }
  });
});

describe("a payout's page", () => {
  it("shows the pesos, the source amount, fees, the masked key, the deposit hash, the provider's references and the timeline", async () => {
    const payout = await read(ids.completed);
    const html = await memberA.page(`/dashboard/payouts/${ids.completed}?integration=${a.integrationId}`);
    expect(html).toContain(`<h1>Pago ${ids.completed}</h1>`);
    expect(html).toContain('<span class="pill good">completed</span>');
    expect(html).toContain("100.000 COP");
    for (const amount of [payout.sourceAmount, payout.providerAmount, payout.serviceFee]) {
      expect(html).toContain(`${groupedDecimal(amount, "es")} USDC`);
    }
    expect(html).toContain(`<dd class="mono">${payout.destination.breBKey}</dd>`);
    expect(html).not.toContain(GOOD_KEY);
    expect(html).toContain(payout.destination.accountOwnerName);
    expect(payout.depositTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(html).toContain(`<span class="mono">${payout.depositTxHash}</span>`);
    expect(html).toContain("Sandbox Destination (31333)");
    expect(payout.providerPayoutId).toBeTruthy();
    expect(html).toContain(`<dd class="mono">${payout.providerPayoutId}</dd>`);
    expect(payout.brebTransactionId).toMatch(/^BREB-/);
    expect(html).toContain(`<dd class="mono">${payout.brebTransactionId}</dd>`);

    const items = [...html.matchAll(/<li data-status="([a-z_]+)"><time datetime="([^"]+)">/g)];
    expect(items.map((m) => m[1])).toEqual([
      "awaiting_deposit",
      "deposit_confirmed",
      "processing",
      "completed",
    ]);
    expect(items.map((m) => m[1])).toEqual(payout.timeline.map((entry) => entry.status));
    expect(items.map((m) => m[2])).toEqual(payout.timeline.map((entry) => entry.at));
    for (const entry of payout.timeline) if (entry.txHash) expect(html).toContain(entry.txHash);
  });

  it("says a payout awaiting its deposit has no transaction yet", async () => {
    const html = await memberA.page(`/dashboard/payouts/${ids.dayTwo}?integration=${a.integrationId}`);
    expect(html).toContain("Aún no hay transacciones: el usuario no ha depositado.");
  });
});

describe("another organization's member", () => {
  it("never sees the rows and gets the 404 page for the payout", async () => {
    const list = await memberB.page("/dashboard/payouts");
    expect(listedIds(list)).toEqual([ids.b]);
    for (const id of [ids.completed, ...ids.dayOne, ids.dayTwo]) expect(list).not.toContain(id);
    const payout = await read(ids.completed);
    for (const path of [
      `/dashboard/payouts/${ids.completed}`,
      `/dashboard/payouts/${ids.completed}?integration=${a.integrationId}`,
    ]) {
      const response = await memberB.get(path);
      const html = await response.text();
      expect(response.status, path).toBe(404);
      expect(html).toContain("No existe en esta integración.");
      expect(html).not.toContain(payout.depositTxHash as string);
    }
    expect((await memberA.get(`/dashboard/payouts/${ids.b}`)).status).toBe(404);
  });
});
