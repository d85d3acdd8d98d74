import { eq } from "drizzle-orm";
import { createPublicClient, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf } from "../../dev/chains";
import { route as getTransaction } from "../../functions/ledger/get-transaction";
import { route as getOrder } from "../../functions/settlement/get-order";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { checkReceipt } from "../../lib/reconciliation/check-receipt";
import { settlementReceipt } from "../../lib/settlement/views/receipt";
import { settlementEvents, settlementOrders, settlementQuotes } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { deliveredOrder, usdcUnits } from "../harness/burns";
import { enableBurnPlan, partnerRequest } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

// An organization's own fee on its settlements: taken from the principal like the service's, shown in
// the quote, paid by the settlement account in USDC on the intermediate chain to the organization's
// address once the user has the COPm, and on the receipt, the lookup and the reconciliation.

let h: Harness;
let tenant: Tenant;
const partnerWallet = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  h = await createHarness({ chains: true });
  tenant = await createTenant(h, "Settlement partner fee");
  await enableBurnPlan(h, tenant);
  const set = await adminRequest(h, `/admin/organizations/${tenant.organizationId}`, {
    method: "PATCH",
    body: { partnerFeeBps: 40, partnerFeeAddress: partnerWallet },
  });
  expect(set.status).toBe(200);
}, 60_000);
afterAll(() => h.close());

describe("an organization's own fee on settlements", () => {
  it("is taken from the principal, paid to its address after the delivery, and sums on the receipt", async () => {
    const placed = await deliveredOrder(h, tenant, "80");
    const order = await bodyOf(
      await partnerRequest(h, tenant, `/api/integrations/settlements/orders/${placed.orderId}`),
      getOrder,
      200,
    );
    expect(order.status).toBe("DELIVERED");
    const { fees } = order.quote;
    // 0.4 % of 80 USDC, rounded up: 0.32; the route carries the principal less both fees.
    expect(fees).toMatchObject({ partnerFeeBps: 40, partnerFeeUsdc: "0.32", serviceFeeUsdc: "0.8" });
    expect(usdcUnits(order.quote.routeInputUsdc)).toBe(
      usdcUnits("80") - usdcUnits("0.8") - usdcUnits("0.32"),
    );

    const fee = order.receipt.legs.find((leg) => leg.leg === "partner_fee");
    if (!fee?.txHash) throw new Error("no partner_fee leg");
    expect(fee).toMatchObject({
      amountIn: "320000",
      fees: [{ type: "partner", token: "USDC", amount: "320000" }],
    });
    if (!h.network) throw new Error("no chains");
    const intermediate = sandboxChainOf(h.network, "intermediate");
    expect(fee.chainId).toBe(intermediate.chainId);
    const balance = await createPublicClient({ transport: http(intermediate.rpcUrl) }).readContract({
      address: intermediate.contracts.usdc as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [partnerWallet],
    });
    expect(balance).toBe(320_000n);

    // It sums: the burn is Circle's fee, the service's, the organization's, the route and what is held.
    const sum = (type: string) =>
      BigInt(order.receipt.fees.find((entry) => entry.type === type)?.amount ?? "0");
    const route = order.receipt.legs.find((leg) => leg.leg === "route");
    const burn = order.receipt.legs.find((leg) => leg.leg === "burn");
    const held = BigInt(order.receipt.residue.find((entry) => entry.token === "USDC")?.amount ?? "0");
    expect(BigInt(burn?.amountIn ?? "0")).toBe(
      sum("circle") + sum("service") + sum("partner") + BigInt(route?.amountIn ?? "0") + held,
    );

    // The lookup names it, as the settlement account's payment; the chains agree with the receipt.
    const lookup = await bodyOf(
      await partnerRequest(h, tenant, `/api/integrations/transactions/${fee.txHash}`),
      getTransaction,
      200,
    );
    expect(lookup.records).toEqual([
      expect.objectContaining({
        id: placed.orderId,
        legs: [expect.objectContaining({ leg: "partner_fee" })],
        payment: { purpose: "partner-fee", status: "success" },
      }),
    ]);
    const [row] = await h.database.db
      .select({ quote: settlementQuotes })
      .from(settlementOrders)
      .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
      .where(eq(settlementOrders.id, placed.orderId));
    const events = await h.database.db
      .select()
      .from(settlementEvents)
      .where(eq(settlementEvents.orderId, placed.orderId));
    if (!row) throw new Error("no order");
    expect(await checkReceipt(h.deps.chains, settlementReceipt(row.quote, events))).toEqual([]);
  }, 60_000);

  it("is paid only from what the order holds: a refund the aggregator kept part of leaves a shortfall on the receipt, not other orders' money", async () => {
    const lossy = await createTenant(h, "Settlement partner fee, lossy route");
    await enableBurnPlan(h, lossy);
    const set = await adminRequest(h, `/admin/organizations/${lossy.organizationId}`, {
      method: "PATCH",
      body: { partnerFeeBps: 100, partnerFeeAddress: partnerWallet },
    });
    expect(set.status).toBe(200);
    if (!h.network) throw new Error("no chains");
    const intermediate = sandboxChainOf(h.network, "intermediate");
    // The aggregator refunds the first route less 1.5 % of it (a bridge keeping its fee); the order
    // still holds a route's worth, so it routes again and delivers.
    h.vendors?.aggregator.refundNextRoute(intermediate.chainId, 150n);
    const client = createPublicClient({ transport: http(intermediate.rpcUrl) });
    const usdcOf = (holder: Hex) =>
      client.readContract({
        address: intermediate.contracts.usdc as Hex,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [holder],
      });
    const partnerBefore = await usdcOf(partnerWallet);
    const placed = await deliveredOrder(h, lossy, "100");
    const order = await bodyOf(
      await partnerRequest(h, lossy, `/api/integrations/settlements/orders/${placed.orderId}`),
      getOrder,
      200,
    );
    expect(order.status).toBe("DELIVERED");
    expect(order.timeline.map((entry) => entry.kind)).toContain("ROUTE_REFUNDED");
    const owed = usdcUnits(order.quote.fees.partnerFeeUsdc);
    // What the order holds on the intermediate chain when it delivers: its mint, less each route,
    // plus the refund; the fee paid is that, and the rest is the receipt's shortfall.
    const events = await h.database.db
      .select()
      .from(settlementEvents)
      .where(eq(settlementEvents.orderId, placed.orderId));
    const figure = (kind: string, field: string) =>
      events.filter((event) => event.kind === kind).map((event) => BigInt(String(event.detail?.[field])));
    const routes = events.filter((event) => event.kind === "ROUTE_SENT").length;
    const [minted = 0n] = figure("FORWARDED_MINT", "amount");
    const refunded = figure("ROUTE_REFUNDED", "amount").reduce((sum, amount) => sum + amount, 0n);
    const held = minted - BigInt(routes) * usdcUnits(order.quote.routeInputUsdc) + refunded;
    expect(held).toBeLessThan(owed);
    expect(held).toBeGreaterThan(0n);
    const paid = order.receipt.legs.find((leg) => leg.leg === "partner_fee");
    const short = order.receipt.legs.find((leg) => leg.leg === "partner_fee_shortfall");
    expect(paid).toMatchObject({ amountIn: held.toString() });
    expect(short).toMatchObject({ amountIn: (owed - held).toString(), movements: [], txHash: null });
    // On chain: the partner got exactly what the order held, and the order holds nothing more there.
    expect((await usdcOf(partnerWallet)) - partnerBefore).toBe(held);
    const residue = order.receipt.residue.filter((entry) => entry.chainId === intermediate.chainId);
    expect(residue).toEqual([]);
    // The service bore the loss first: it kept nothing of its fee, and the receipt still reconciles.
    expect(order.receipt.legs.find((leg) => leg.leg === "service_fee")).toMatchObject({
      amountIn: "0",
      fees: [],
    });
    const [row] = await h.database.db
      .select({ quote: settlementQuotes })
      .from(settlementOrders)
      .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
      .where(eq(settlementOrders.id, placed.orderId));
    if (!row) throw new Error("no order");
    expect(await checkReceipt(h.deps.chains, settlementReceipt(row.quote, events))).toEqual([]);
  }, 60_000);
});
