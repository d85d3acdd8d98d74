import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupedDecimal } from "../../functions/dashboard/format";
import { type GetSwapResponse, route as getSwap } from "../../functions/swaps/get-swap";
import { route as listSwaps } from "../../functions/swaps/list-swaps";
import { route as adminCreateApiKey } from "../../functions/tenancy/admin-create-api-key";
import { route as adminCreateIntegration } from "../../functions/tenancy/admin-create-integration";
import { formatAmount } from "../../lib/kernel/money";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { addMember, type DashboardClient, signedInClient } from "../harness/dashboard";
import { partnerRequest } from "../harness/settlement";
import {
  confirmRequest,
  getSwapRequest,
  prepareSwap,
  sendPrepared,
  swapWallet,
  unitsOf,
} from "../harness/swaps";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

// The swaps pages in-process: swaps prepared and confirmed through the partner API with real
// transactions on the sandbox destination chain, read by members signed in with the code.

const DAY = 24 * 60 * 60 * 1000;

let h: Harness;
let a: Tenant;
/** A second integration of A's organization. */
let a2: Tenant;
let b: Tenant;
let memberA: DashboardClient;
let memberB: DashboardClient;
/** A's first integration's confirmed swaps oldest first (the last one a day later), and the others. */
const ids = { confirmed: [] as string[], prepared: "", a2: "", b: "" };
let dayTwo = "";

beforeAll(async () => {
  h = await createHarness({ chains: true, identity: true });
  a = await createTenant(h, "Swaps A");
  b = await createTenant(h, "Swaps B");
  const created = await adminRequest(h, `/admin/organizations/${a.organizationId}/integrations`, {
    method: "POST",
    body: { name: "Swaps A, second app" },
  });
  const integrationId = (await bodyOf(created, adminCreateIntegration, 201)).integration.id;
  const issued = await adminRequest(h, `/admin/integrations/${integrationId}/keys`, {
    method: "POST",
    body: {},
  });
  a2 = { ...a, integrationId, apiKey: (await bodyOf(issued, adminCreateApiKey, 201)).apiKey };
  await addMember(h, a.organizationId, "ops@swaps-a.example");
  await addMember(h, b.organizationId, "ops@swaps-b.example");

  for (const amount of ["1500", "10", "2.5"]) ids.confirmed.push(await swap(a, amount, true));
  ids.prepared = await swap(a, "10", false);
  ids.a2 = await swap(a2, "10", true);
  ids.b = await swap(b, "10", true);
  h.clock.advance(DAY);
  dayTwo = h.clock.now().toISOString().slice(0, 10);
  ids.confirmed.push(await swap(a, "10", true));

  memberA = await signedInClient(h, "ops@swaps-a.example");
  memberB = await signedInClient(h, "ops@swaps-b.example");
}, 180_000);
afterAll(() => h?.close());

/** A USDT → COPm swap of `amount`, confirmed with its real transaction when `confirm`. */
async function swap(tenant: Tenant, amount: string, confirm: boolean): Promise<string> {
  h.clock.advance(1_000);
  const wallet = await swapWallet(h, { USDT: amount });
  const prepared = await prepareSwap(h, tenant, {
    wallet: wallet.address,
    tokenIn: "USDT",
    tokenOut: "COPm",
    amountIn: unitsOf("USDT", amount).toString(),
  });
  if (confirm) {
    const txHash = await sendPrepared(h, wallet, prepared);
    const confirmed = await confirmRequest(h, tenant, prepared.intentId, { txHash });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  }
  return prepared.intentId;
}

async function read(intentId: string): Promise<GetSwapResponse> {
  return bodyOf(await getSwapRequest(h, a, intentId), getSwap, 200);
}

const listedIds = (html: string) => [...html.matchAll(/<tr data-swap-id="([^"]+)"/g)].map((m) => m[1] ?? "");

function rowOf(html: string, intentId: string): string {
  const start = html.indexOf(`<tr data-swap-id="${intentId}"`);
  expect(start, `${intentId} is listed`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</tr>", start));
}

const nextLink = (html: string) => html.match(/<a href="([^"]+)" rel="next">/)?.[1]?.replaceAll("&amp;", "&");
const swaps = (query = "", integrationId = a.integrationId) =>
  `/dashboard/swaps?integration=${integrationId}${query}`;

describe("the swaps list", () => {
  it("lists the integration's confirmed swaps with pair, amounts in and out with token and separators, hash and time", async () => {
    const html = await memberA.page(swaps());
    expect(listedIds(html)).toEqual(ids.confirmed);
    const api = await partnerRequest(h, a, `/api/integrations/swaps?integration_id=${a.integrationId}`);
    expect(listedIds(html)).toEqual((await bodyOf(api, listSwaps, 200)).swaps.map((swap) => swap.intentId));
    expect(html).not.toContain(ids.prepared);
    expect(html).not.toContain(ids.a2);

    const big = await read(ids.confirmed[0] as string);
    const received = formatAmount(BigInt(big.amountOutReceived as string), 18);
    const row = rowOf(html, big.intentId);
    expect(row).toContain(`href="/dashboard/swaps/${big.intentId}?integration=${a.integrationId}"`);
    expect(row).toContain("<td>USDT → COPm</td>");
    expect(row).toContain("1.500 USDT");
    expect(row).toContain(`${groupedDecimal(received, "es")} COPm`);
    expect(groupedDecimal(received, "es")).toMatch(/^\d{1,3}(\.\d{3})+(,\d+)?$/);
    expect(row).toContain(`<span class="mono">${big.txHash}</span>`);
    expect(row).toContain(`<time datetime="${big.confirmedAt}">`);
    expect(rowOf(html, ids.confirmed[2] as string)).toContain("2,5 USDT");

    const english = await memberA.page(swaps("&lang=en"));
    expect(rowOf(english, big.intentId)).toContain("1,500 USDT");
    expect(rowOf(english, big.intentId)).toContain(`${groupedDecimal(received, "en")} COPm`);
    await memberA.page(swaps("&lang=es"));
  });

  it("lists another integration of the organization when the chooser names it", async () => {
    const html = await memberA.page(swaps("", a2.integrationId));
    expect(listedIds(html)).toEqual([ids.a2]);
    expect(html).toMatch(new RegExp(`<option value="${a2.integrationId}" selected="">`));
  });

  it("filters by the since date and pages with the verb's opaque cursor", async () => {
    expect(listedIds(await memberA.page(swaps(`&since=${dayTwo}`)))).toEqual([ids.confirmed[3]]);
    const first = await memberA.page(swaps("&limit=3"));
    expect(listedIds(first)).toEqual(ids.confirmed.slice(0, 3));
    const next = nextLink(first);
    expect(next).toMatch(
      new RegExp(`^/dashboard/swaps\\?integration=${a.integrationId}&limit=3&cursor=[A-Za-z0-9%]+$`),
    );
    const second = await memberA.page(next as string);
    expect(listedIds(second)).toEqual([ids.confirmed[3]]);
    expect(nextLink(second)).toBeUndefined();
  });

  it("answers a bad filter with 400 and a message naming it, never a 500", async () => {
    const cases: Array<[string, string]> = [
      ["&since=yesterday", "«Desde» debe ser una fecha"],
      ["&since=2026-11-22T10:00:00", "«Desde» debe ser una fecha"],
      ["&limit=0", "«limit» debe ser un número entero de 1 a 500"],
      ["&cursor=not-a-cursor", "el cursor no es de esta lista"],
      // Year 0 and +275760 parse as dates but Postgres refuses them (issue 20, finding 7: each was a 500).
      [
        `&cursor=${encodeURIComponent(btoa("0000-01-01T00:00:00.000Z|si_01KAZ6XQ4R8N2M5V7B9C1D3F5G"))}`,
        "el cursor no es de esta lista",
      ],
      [
        `&cursor=${encodeURIComponent(btoa("+275760-09-13T00:00:00.000Z|si_01KAZ6XQ4R8N2M5V7B9C1D3F5G"))}`,
        "el cursor no es de esta lista",
      ],
    ];
    for (const [query, hint] of cases) {
      const response = await memberA.get(swaps(query));
      const html = await response.text();
      expect(response.status, query).toBe(400);
      expect(html, query).toContain('<p class="error" role="alert" data-code="INVALID_REQUEST">');
      expect(html, query).toContain(`Revisa el filtro: ${hint}`);
      expect(listedIds(html), query).toEqual([]);
    }
  });
});

describe("a swap's page", () => {
  it("shows the pair, the amounts in and out with their tokens, the hash, its chain, block and confirmation time", async () => {
    const swap = await read(ids.confirmed[0] as string);
    const html = await memberA.page(`/dashboard/swaps/${swap.intentId}?integration=${a.integrationId}`);
    expect(html).toContain(`<h1>Swap ${swap.intentId}</h1>`);
    expect(html).toContain('<span class="pill good">confirmed</span>');
    expect(html).toContain("USDT → COPm");
    expect(html).toContain("1.500 USDT");
    for (const units of [swap.expectedAmountOut, swap.minAmountOut, swap.amountOutReceived as string]) {
      expect(html).toContain(`${groupedDecimal(formatAmount(BigInt(units), 18), "es")} COPm`);
    }
    expect(html).toContain(`<span class="mono">${swap.txHash}</span>`);
    expect(html).toContain("Sandbox Destination (31333)");
    expect(html).toContain(`<dd class="mono">${swap.blockNumber}</dd>`);
    expect(html).toContain(`<time datetime="${swap.confirmedAt}">`);
    expect(html).toContain("Swap confirmado por su hash");
  });

  it("shows a prepared swap as not confirmed yet", async () => {
    const html = await memberA.page(`/dashboard/swaps/${ids.prepared}?integration=${a.integrationId}`);
    expect(html).toContain('<span class="pill wait">prepared</span>');
    expect(html).toContain("Aún no confirmado.");
    expect(html).toContain("10 USDT");
  });
});

describe("another organization's member", () => {
  it("never sees the rows and gets the 404 page for the swap", async () => {
    const list = await memberB.page("/dashboard/swaps");
    expect(listedIds(list)).toEqual([ids.b]);
    for (const id of [...ids.confirmed, ids.a2]) expect(list).not.toContain(id);
    const swap = await read(ids.confirmed[0] as string);
    for (const path of [
      `/dashboard/swaps/${swap.intentId}`,
      `/dashboard/swaps/${swap.intentId}?integration=${a.integrationId}`,
      `/dashboard/swaps?integration=${a.integrationId}`,
    ]) {
      const response = await memberB.get(path);
      const html = await response.text();
      expect(response.status, path).toBe(404);
      expect(html).toContain("No existe en esta integración.");
      expect(html).not.toContain(swap.txHash as string);
    }
    expect((await memberA.get(`/dashboard/swaps/${ids.b}`)).status).toBe(404);
  });
});
