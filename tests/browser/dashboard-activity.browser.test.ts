import type { Page } from "playwright-core";
import { type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { route as getOrder } from "../../functions/settlement/get-order";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import type { Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { type BrowserSuite, screenshotBoth, startBrowserSuite, VIEWPORTS } from "../harness/browser";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { addMember, signInInBrowser } from "../harness/dashboard";
import { approvedUser, confirmedPayout } from "../harness/payouts";
import { enableBurnPlan, partnerRequest } from "../harness/settlement";
import { confirmRequest, prepareSwap, sendPrepared, swapWallet, unitsOf } from "../harness/swaps";
import { createTenant, type Tenant } from "../harness/tenants";

// The dashboard's activity pages (orders, payouts, swaps, sandbox) in headless Chromium against the
// in-process app served over loopback HTTP with the worker's static assets, the sandbox chains, the
// local BRE-B provider and the mailbox the sign-in code is read from. A settlement order is taken to
// DELIVERED by the real flow first; a person then finds it by clicking.

let suite: BrowserSuite;
let acme: Tenant;
let other: Tenant;
const seeded = { delivered: "", created: "", payout: "", swap: "" };

beforeAll(async () => {
  suite = await startBrowserSuite({
    harness: { chains: true, identity: true, payouts: true },
    prepare: seed,
  });
}, 180_000);

afterAll(() => suite?.close());

async function seed(h: Harness): Promise<void> {
  acme = await createTenant(h, "Acme Wallet");
  other = await createTenant(h, "Other Org");
  await enableBurnPlan(h, acme);
  await addMember(h, acme.organizationId, "ops@acme.example");
  // A second member: a code is sent to one email at most every 30 seconds.
  await addMember(h, acme.organizationId, "dev@acme.example");
  await addMember(h, other.organizationId, "ops@other.example");

  // One order to DELIVERED through the real flow: the plan sent on the source chain, the burn
  // submitted, the jobs drained a poll at a time.
  const placed = await placeOrder(h, acme, undefined, "250");
  expect((await submitBurn(h, acme, placed.orderId, await sendPlan(h, placed))).status).toBe(200);
  for (let poll = 0; poll < 30 && (await readOrder(h, placed.orderId)).status !== "DELIVERED"; poll++) {
    await h.jobs.drain();
    h.clock.advance(5_000);
  }
  expect((await readOrder(h, placed.orderId)).status).toBe("DELIVERED");
  seeded.delivered = placed.orderId;
  // A second order, not burned yet, from the other source chain.
  seeded.created = (await placeOrder(h, acme, undefined, "40", "sourceB")).orderId;

  // A completed payout and a confirmed swap, so their pages show something.
  const user = await approvedUser(h, acme, { usdc: "100" });
  seeded.payout = (await confirmedPayout(h, acme, user, { destinationCop: "100000" })).payoutId;
  await h.jobs.drain();
  h.clock.advance(2_000);
  await h.breb?.settle();
  const wallet = await swapWallet(h, { USDT: "1500" });
  const prepared = await prepareSwap(h, acme, {
    wallet: wallet.address,
    tokenIn: "USDT",
    tokenOut: "COPm",
    amountIn: unitsOf("USDT", "1500").toString(),
  });
  const txHash = await sendPrepared(h, wallet, prepared);
  expect((await confirmRequest(h, acme, prepared.intentId, { txHash })).status).toBe(200);
  seeded.swap = prepared.intentId;
}

async function readOrder(h: Harness, orderId: string) {
  const response = await partnerRequest(h, acme, `/api/integrations/settlements/orders/${orderId}`);
  return bodyOf(response, getOrder, 200);
}

/** A fresh browser profile at desktop width, in Bogotá's time zone. */
const openPage = (locale = "es-CO") =>
  suite.openPage({ locale, viewport: "desktop", timezoneId: "America/Bogota" });

/**
 * Screenshots at both widths, and the page fits a phone: nothing wider than 390 px but what scrolls
 * inside its own table frame.
 */
async function shoot(page: Page, name: string): Promise<void> {
  await screenshotBoth(page, name, "phone");
  const width = await page.evaluate<number>("document.documentElement.scrollWidth");
  expect(width, `${name} at phone width`).toBeLessThanOrEqual(VIEWPORTS.phone.width);
  await page.setViewportSize(VIEWPORTS.desktop);
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();
const nav = (page: Page) => page.getByRole("navigation", { name: "Secciones" });

describe("the dashboard's activity pages in Chromium", () => {
  it("a member opens Orders, then the delivered order, and sees DELIVERED and every transaction hash of the API's view", async () => {
    const order = await readOrder(suite.h, seeded.delivered);
    const { page, problems } = await openPage();
    await signInInBrowser(suite.h, page, suite.baseUrl, "ops@acme.example");

    await nav(page).getByRole("link", { name: "Órdenes de liquidación" }).click();
    // From the overview (no integration chosen) the page reads the organization's first one.
    await page.waitForURL(`${suite.baseUrl}/dashboard/orders`);
    await expect.poll(() => heading(page)).toBe("Órdenes de liquidación");
    const table = page.getByRole("table", { name: "Órdenes" });
    expect(await table.locator("tbody tr").count()).toBe(2);
    const row = table.locator(`tr[data-order-id="${seeded.delivered}"]`);
    expect(await row.locator(".pill").first().textContent()).toBe("DELIVERED");
    expect(await row.textContent()).toContain("250 USDC");
    // Each order's source chain, by the name and id its execution gives.
    expect(await row.textContent()).toContain("Sandbox Source (31331)");
    expect(await table.locator(`tr[data-order-id="${seeded.created}"]`).textContent()).toContain(
      "Sandbox Source B (31334)",
    );
    // The script showed the time in the viewer's locale and zone; the HTML carries it in UTC.
    await expect.poll(() => row.locator("time").textContent()).not.toContain("UTC");
    await shoot(page, "dashboard-orders-list");

    // The status filter, as a person uses it.
    await page.getByLabel("Estado").selectOption("CREATED");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.waitForURL(/status=CREATED/);
    expect(await table.locator("tbody tr").count()).toBe(1);
    expect(await table.locator(`tr[data-order-id="${seeded.created}"]`).count()).toBe(1);
    await page.getByLabel("Estado").selectOption("");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.waitForURL((url) => !url.search.includes("status=CREATED"));

    await page.getByRole("link", { name: seeded.delivered }).click();
    await page.waitForURL(
      `${suite.baseUrl}/dashboard/orders/${seeded.delivered}?integration=${acme.integrationId}`,
    );
    await expect.poll(() => heading(page)).toBe(`Orden ${seeded.delivered}`);
    const facts = page.locator("dl.facts");
    expect(await facts.locator(".pill").first().textContent()).toBe("DELIVERED");
    expect(await facts.locator("dt:text-is('Cadena de origen') + dd").textContent()).toBe(
      "Sandbox Source (31331)",
    );
    // Every hash of the view, once per step it stands for (one transaction may be two steps).
    const steps = order.timeline.map((entry) => entry.txHash).filter((hash): hash is string => hash !== null);
    expect(steps.length).toBeGreaterThanOrEqual(7);
    expect(steps).toContain(order.burnTxHash);
    const transactions = page.getByRole("table", { name: "Transacciones" });
    expect(await transactions.locator("tbody tr").count()).toBe(steps.length);
    for (const hash of new Set(steps)) {
      const times = steps.filter((step) => step === hash).length;
      expect(await transactions.getByText(hash, { exact: true }).count(), hash).toBe(times);
    }
    expect(await transactions.textContent()).toContain("Sandbox Destination (31333)");
    const timeline = page.locator("ol.timeline li");
    expect(await timeline.count()).toBe(order.timeline.length);
    expect(await timeline.last().textContent()).toContain("COPm entregados");
    await shoot(page, "dashboard-orders-detail");
    expect(problems).toEqual([]);
  });

  it("a member browses the payouts, the swaps and the sandbox, and mints with the faucet form", async () => {
    const { page, problems } = await openPage("en-US");
    await signInInBrowser(suite.h, page, suite.baseUrl, "dev@acme.example");
    const sections = page.getByRole("navigation", { name: "Sections" });

    await sections.getByRole("link", { name: "BRE-B payouts" }).click();
    await expect.poll(() => heading(page)).toBe("BRE-B payouts");
    const payoutRow = page.locator(`tr[data-payout-id="${seeded.payout}"]`);
    expect(await payoutRow.textContent()).toContain("100,000 COP");
    await expect.poll(() => payoutRow.locator(".pill").textContent()).toBe("completed");
    await shoot(page, "dashboard-payouts-list");
    await page.getByRole("link", { name: seeded.payout }).click();
    await expect.poll(() => heading(page)).toBe(`Payout ${seeded.payout}`);
    expect(await page.getByRole("table", { name: "Transactions" }).locator("tbody tr").count()).toBe(1);
    await shoot(page, "dashboard-payouts-detail");

    await sections.getByRole("link", { name: "Swaps" }).click();
    await expect.poll(() => heading(page)).toBe("Swaps");
    const swapRow = page.locator(`tr[data-swap-id="${seeded.swap}"]`);
    expect(await swapRow.textContent()).toContain("1,500 USDT");
    await shoot(page, "dashboard-swaps-list");
    await page.getByRole("link", { name: seeded.swap }).click();
    await expect.poll(() => heading(page)).toBe(`Swap ${seeded.swap}`);
    await shoot(page, "dashboard-swaps-detail");

    await sections.getByRole("link", { name: "Sandbox" }).click();
    await expect.poll(() => heading(page)).toBe("Sandbox");
    await shoot(page, "dashboard-sandbox");
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await page.getByLabel("Receiving address").fill(recipient);
    await page.getByLabel("Chain", { exact: true }).selectOption("31333");
    await page.getByLabel("Token", { exact: true }).selectOption("COPm");
    await page.getByLabel(/^Amount/).fill("250000");
    await page.getByRole("button", { name: "Mint" }).click();
    const done = page.getByRole("status");
    await done.waitFor();
    expect(await done.textContent()).toContain("Done: 250,000 COPm minted on Sandbox Destination (31333)");
    expect(await done.textContent()).toContain("250,000 COPm");
    const network = suite.h.network;
    if (!network) throw new Error("no chains");
    const destination = sandboxChainOf(network, "destination");
    const balance = await sandboxPublicClient(destination).readContract({
      address: destination.contracts.copm as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [recipient],
    });
    expect(balance).toBe(parseUnits("250000", 18));
    await shoot(page, "dashboard-sandbox-faucet");
    expect(problems).toEqual([]);
  });

  it("a member of another organization, in a fresh browser, sees no row and gets 404 on the order's address", async () => {
    const { page, problems } = await openPage();
    await signInInBrowser(suite.h, page, suite.baseUrl, "ops@other.example");
    await nav(page).getByRole("link", { name: "Órdenes de liquidación" }).click();
    await expect.poll(() => heading(page)).toBe("Órdenes de liquidación");
    expect(await page.locator("tr[data-order-id]").count()).toBe(0);
    expect(await page.getByText("No hay órdenes con estos filtros.").count()).toBe(1);
    expect(await page.content()).not.toContain(seeded.delivered);
    await shoot(page, "dashboard-orders-other-organization");

    const order = await readOrder(suite.h, seeded.delivered);
    for (const address of [
      `${suite.baseUrl}/dashboard/orders/${seeded.delivered}`,
      `${suite.baseUrl}/dashboard/orders/${seeded.delivered}?integration=${acme.integrationId}`,
    ]) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(404);
      expect(await heading(page)).toBe("No encontrado");
      expect(await page.getByRole("alert").textContent()).toBe("No existe en esta integración.");
      const html = await page.content();
      for (const entry of order.timeline) if (entry.txHash) expect(html).not.toContain(entry.txHash);
    }
    await shoot(page, "dashboard-orders-not-found");
    // Nor the payout or the swap.
    expect((await page.goto(`${suite.baseUrl}/dashboard/payouts/${seeded.payout}`))?.status()).toBe(404);
    expect((await page.goto(`${suite.baseUrl}/dashboard/swaps/${seeded.swap}`))?.status()).toBe(404);
    expect(problems).toEqual([]);
    expect(other.organizationId).not.toBe(acme.organizationId);
  });
});
