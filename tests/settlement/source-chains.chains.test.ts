import { count, eq } from "drizzle-orm";
import { concatHex, encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxPublicClient } from "../../dev/chains";
import { localSettlementVars } from "../../dev/local-defaults";
import { route as createQuoteRoute } from "../../functions/settlement/create-quote";
import { route as listChainsRoute } from "../../functions/settlement/list-chains";
import { route as updateOrganization } from "../../functions/tenancy/admin-update-organization";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { orderCommitment, returnCommitment } from "../../lib/kernel/chain/forwarding";
import { organizations, settlementQuotes } from "../../schema";
import type { Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import {
  clientsOn,
  deliveredOrder,
  placeOrder,
  sendPlan,
  sourceOf,
  sourceUsdcOf,
  submitBurn,
} from "../harness/burns";
import {
  DESTINATION_ADDRESS,
  orderEvents,
  partnerRequest,
  readOrder,
  SOURCE_ADDRESS,
  settlementSuite,
} from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

/**
 * A settlement's USDC may leave any source chain the deployment serves (docs/settlement.md, "Source
 * chains"): the sandbox runs two, an Arbitrum-like default (domain 3, Fast and Standard) and an
 * Avalanche-like one (domain 1, Standard only, as Circle offers no Fast Transfer from Avalanche).
 */
describe("settlement source chains", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  const quote = (t: Tenant, extra: Record<string, unknown> = {}) =>
    partnerRequest(h, t, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: {
        sendAmountUsdc: "100",
        sourceAddress: SOURCE_ADDRESS,
        destinationAddress: DESTINATION_ADDRESS,
        ...extra,
      },
    });
  const patch = (t: Tenant, body: Record<string, unknown>) =>
    adminRequest(h, `/admin/organizations/${t.organizationId}`, { method: "PATCH", body });
  const quoteCount = async (t: Tenant) =>
    (
      await h.database.db
        .select({ n: count() })
        .from(settlementQuotes)
        .where(eq(settlementQuotes.organizationId, t.organizationId))
    )[0]?.n;

  it("lists both source chains, the default first, with Circle's speeds and typical times", async () => {
    const listed = await bodyOf(
      await partnerRequest(h, tenant, "/api/integrations/settlements/chains"),
      listChainsRoute,
      200,
    );
    expect(listed.data).toEqual([
      {
        chainId: 31331,
        name: "Sandbox Source",
        cctpDomain: 3,
        isDefault: true,
        method: "cctp_burn",
        usdc: sourceOf(h).contracts.usdc,
        confirmations: 1,
        transferSpeeds: ["standard", "fast"],
        typicalSecondsToAttestation: { standard: 3, fast: 3 },
        typicalSecondsToDelivered: { standard: 13, fast: 13 },
        minSendUsdc: "10",
        maxSendUsdc: "1000",
      },
      expect.objectContaining({
        chainId: 31334,
        name: "Sandbox Source B",
        cctpDomain: 1,
        isDefault: false,
        method: "cctp_burn",
        usdc: sourceOf(h, "sourceB").contracts.usdc,
        transferSpeeds: ["standard"],
        typicalSecondsToAttestation: { standard: 3, fast: null },
        typicalSecondsToDelivered: { standard: 13, fast: null },
      }),
      // USDC already on the intermediate chain: a transfer, no attestation to wait for.
      expect.objectContaining({
        chainId: 31332,
        name: "Sandbox Intermediate",
        isDefault: false,
        method: "usdc_transfer",
        usdc: sourceOf(h, "intermediate").contracts.usdc,
        transferSpeeds: ["standard"],
        typicalSecondsToAttestation: { standard: null, fast: null },
        typicalSecondsToDelivered: { standard: 10, fast: null },
      }),
    ]);
    // Without a key it is the partner API's 401, as every partner route.
    expect((await h.app.request("/api/integrations/settlements/chains")).status).toBe(401);
  });

  it("quotes from each source chain, named by id or by name in any case, with Circle's fees for that domain", async () => {
    const asked = () => h.vendors?.circle.feeRoutes.at(-1);
    const byDefault = await bodyOf(await quote(tenant), createQuoteRoute, 201);
    expect(byDefault.sourceChainId).toBe(31331);
    // Circle's fees are asked for the chain's own domain to the intermediate chain's (6).
    expect(asked()).toBe("3/6");
    const byId = await bodyOf(await quote(tenant, { sourceChain: 31334 }), createQuoteRoute, 201);
    expect(asked()).toBe("1/6");
    const byName = await bodyOf(
      await quote(tenant, { sourceChain: "sandbox source B" }),
      createQuoteRoute,
      201,
    );
    const byIdText = await bodyOf(await quote(tenant, { sourceChain: "31334" }), createQuoteRoute, 201);
    for (const other of [byId, byName, byIdText]) {
      expect(other.sourceChainId).toBe(31334);
      expect(other.legs[0]).toMatchObject({
        kind: "cctp_burn",
        chainId: 31334,
        tokenIn: sourceOf(h, "sourceB").contracts.usdc,
      });
      // The local Circle charges the same on every route: the same terms but for the chain.
      expect(other).toMatchObject({
        transferUpfrontFeeUsdc: byDefault.transferUpfrontFeeUsdc,
        totalDebitUsdc: byDefault.totalDebitUsdc,
        copAmountMin: byDefault.copAmountMin,
      });
    }
    expect(byDefault.legs[0]?.chainId).toBe(31331);
  });

  it("an organization on Fast burns Fast from the default chain and Standard from a chain without Fast", async () => {
    const fast = await createTenant(h, "Fast wallet");
    expect((await patch(fast, { fastTransfer: true })).status).toBe(200);
    const fromDefault = await bodyOf(await quote(fast), createQuoteRoute, 201);
    expect(fromDefault.transferSpeed).toBe("fast");
    expect(fromDefault.fees.fastTransferFeeUsdc).not.toBe("0");
    expect(fromDefault.legs[0]?.provider).toBe("circle-cctp-v2-fast-forwarding");
    const fromB = await bodyOf(await quote(fast, { sourceChain: 31334 }), createQuoteRoute, 201);
    expect(fromB).toMatchObject({ transferSpeed: "standard", fees: { fastTransferFeeUsdc: "0" } });
    expect(fromB.legs[0]?.provider).toBe("circle-cctp-v2-standard-forwarding");
  });

  it("refuses a chain it does not serve as a source, naming sourceChain, and prices nothing", async () => {
    const before = await quoteCount(tenant);
    const network = h.network;
    if (!network) throw new Error("no chains");
    const destination = network.chains.find((chain) => chain.role === "destination")?.chainId;
    for (const sourceChain of [42161, "Solana", "Sandbox Destination", destination, "31334x"]) {
      const refusal = await errorOf(await quote(tenant, { sourceChain }), 400);
      expect(refusal).toMatchObject({
        code: "UNSUPPORTED_SOURCE_CHAIN",
        problems: [expect.objectContaining({ field: "body.sourceChain", code: "UNSUPPORTED_SOURCE_CHAIN" })],
      });
    }
    // Not a chain at all: the request's shape is wrong.
    for (const sourceChain of [0, -1, 1.5, "", true, null, { chainId: 31334 }]) {
      const refusal = await errorOf(await quote(tenant, { sourceChain }), 400);
      expect(refusal.problems?.map((problem) => problem.field)).toContain("body.sourceChain");
    }
    expect(await quoteCount(tenant)).toBe(before);
  });

  it("uses the organization's default source chain when the quote names none, and refuses one it no longer serves", async () => {
    const partner = await createTenant(h, "Avalanche wallet");
    const set = await bodyOf(
      await patch(partner, { defaultSourceChain: "Sandbox Source B" }),
      updateOrganization,
      200,
    );
    expect(set.organization.defaultSourceChainId).toBe(31334);
    expect((await bodyOf(await quote(partner), createQuoteRoute, 201)).sourceChainId).toBe(31334);
    // The quote's own choice wins over the default.
    expect(
      (await bodyOf(await quote(partner, { sourceChain: 31331 }), createQuoteRoute, 201)).sourceChainId,
    ).toBe(31331);
    const listed = await bodyOf(
      await partnerRequest(h, partner, "/api/integrations/settlements/chains"),
      listChainsRoute,
      200,
    );
    expect(listed.data.map((chain) => [chain.chainId, chain.isDefault])).toEqual([
      [31334, true],
      [31331, false],
      [31332, false],
    ]);

    // An unserved chain is refused as a setting and changes nothing; null goes back to the service's.
    const refused = await errorOf(await patch(partner, { defaultSourceChain: 1 }), 400);
    expect(refused).toMatchObject({
      code: "UNSUPPORTED_SOURCE_CHAIN",
      problems: [expect.objectContaining({ field: "body.defaultSourceChain" })],
    });
    const [row] = await h.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, partner.organizationId));
    expect(row?.defaultSourceChainId).toBe(31334);
    expect(
      (await bodyOf(await patch(partner, { defaultSourceChain: null }), updateOrganization, 200)).organization
        .defaultSourceChainId,
    ).toBeNull();
    expect((await bodyOf(await quote(partner), createQuoteRoute, 201)).sourceChainId).toBe(31331);

    // A default the deployment stopped serving (a chain whose RPC was removed) is refused, not
    // silently swapped for another chain the user's USDC is not on.
    const stale = await createTenant(h, "Stale default");
    await h.database.db
      .update(organizations)
      .set({ defaultSourceChainId: 10 })
      .where(eq(organizations.id, stale.organizationId));
    const refusal = await errorOf(await quote(stale), 400);
    expect(refusal).toMatchObject({
      code: "UNSUPPORTED_SOURCE_CHAIN",
      problems: [expect.objectContaining({ field: "body.sourceChain" })],
    });
    expect(await quoteCount(stale)).toBe(0);
  });

  it("settles from the second source chain to DELIVERED: its plan, burn and timeline on that chain", async () => {
    const delivered = await deliveredOrder(h, tenant, "50", "sourceB");
    const chainB = sourceOf(h, "sourceB");
    expect(delivered.plan?.eip712.domain.chainId).toBe(chainB.chainId);
    expect(delivered.plan?.steps.map((step) => [step.chainId, step.to])).toEqual([
      [chainB.chainId, chainB.contracts.usdc],
      [chainB.chainId, chainB.contracts.tokenMessenger],
    ]);
    const order = await readOrder(h, tenant, delivered.orderId);
    expect(order).toMatchObject({
      status: "DELIVERED",
      execution: { chain: "Sandbox Source B", chainId: chainB.chainId },
      quote: { sourceChainId: chainB.chainId },
    });
    expect(order.timeline.find((entry) => entry.kind === "BURN_VERIFIED")).toMatchObject({
      chainId: chainB.chainId,
      txHash: delivered.burnHash,
    });
    const deliveryEvent = (await orderEvents(h, delivered.orderId)).find(
      (event) => event.kind === "DELIVERED",
    );
    expect(BigInt(String(deliveryEvent?.detail?.copm ?? "0")) > 0n).toBe(true);
  });

  it("settles USDC already on the intermediate chain: one transfer with the order's commitment, no Circle fee, DELIVERED", async () => {
    const intermediate = sourceOf(h, "intermediate");
    const feeRoutesBefore = h.vendors?.circle.feeRoutes.length;
    const quoted = await bodyOf(
      await quote(tenant, { sourceChain: "Sandbox Intermediate" }),
      createQuoteRoute,
      201,
    );
    // A transfer pays Circle nothing: its fees are not asked for.
    expect(h.vendors?.circle.feeRoutes.length).toBe(feeRoutesBefore);
    expect(quoted).toMatchObject({
      sourceChainId: intermediate.chainId,
      transferUpfrontFeeUsdc: "0",
      totalDebitUsdc: "100",
      fees: { fastTransferFeeUsdc: "0", forwardingFeeUsdc: "0", feeBufferUsdc: "0" },
    });
    expect(quoted.legs[0]).toMatchObject({
      kind: "usdc_transfer",
      chainId: intermediate.chainId,
      provider: "erc20-transfer",
    });

    const delivered = await deliveredOrder(h, tenant, "50", "intermediate");
    expect(delivered.plan?.steps).toEqual([
      expect.objectContaining({
        type: "transfer",
        chainId: intermediate.chainId,
        to: intermediate.contracts.usdc,
      }),
    ]);
    // The order's commitment rides after the transfer's arguments.
    expect(
      delivered.plan?.steps[0]?.data.toLowerCase().endsWith(orderCommitment(delivered.orderId).slice(2)),
    ).toBe(true);
    const order = await readOrder(h, tenant, delivered.orderId);
    expect(order).toMatchObject({
      status: "DELIVERED",
      execution: { chain: "Sandbox Intermediate", chainId: intermediate.chainId },
    });
    expect(order.timeline.map((entry) => entry.kind)).toEqual([
      "ORDER_CREATED",
      "DEPOSIT_VERIFIED",
      "ROUTE_SENT",
      "ROUTE_COMPLETED",
      "EXCHANGED",
      "DELIVERED",
    ]);
    expect(order.timeline[1]).toMatchObject({
      status: "MINTED",
      fundsStatus: "USDC_ON_INTERMEDIATE",
      chainId: intermediate.chainId,
      txHash: delivered.burnHash,
    });
    // The receipt's legs: the deposit, no Circle mint, and the service's fee kept where the deposit landed.
    expect(order.receipt.legs.map((leg) => [leg.leg, leg.chainId])).toEqual([
      ["deposit", intermediate.chainId],
      ["route", intermediate.chainId],
      ["exchange", 31333],
      ["service_fee", intermediate.chainId],
      ["delivery", 31333],
    ]);
  });

  it("claims a transfer only for its own order: none without the commitment, another order's, another sender's", async () => {
    const intermediate = sourceOf(h, "intermediate");
    const usdc = intermediate.contracts.usdc as Hex;
    const account = localSettlementVars().SETTLEMENT_ACCOUNT_ADDRESS as Hex;
    const placed = await placeOrder(h, tenant, undefined, "20", "intermediate");
    const other = await placeOrder(h, tenant, undefined, "20", "intermediate");
    const send = async (from: typeof placed.user, data: Hex) => {
      const { reader, wallet } = clientsOn(intermediate, from);
      const hash = await wallet.sendTransaction({ to: usdc, data });
      await reader.waitForTransactionReceipt({ hash });
      return hash;
    };
    const transfer = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [account, placed.totalDebit],
    });
    const refusals = [
      [await send(placed.user, transfer), "it carries no commitment after the transfer"],
      [
        await send(placed.user, concatHex([transfer, orderCommitment(other.orderId)])),
        "it commits to another order",
      ],
      // The other order's user sends this order's exact transfer: the quote's source address did not.
      [await send(other.user, concatHex([transfer, orderCommitment(placed.orderId)])), "sender"],
    ] as const;
    for (const [hash, why] of refusals) {
      const refusal = await errorOf(await submitBurn(h, tenant, placed.orderId, hash), 400);
      expect(refusal.code).toBe("INVALID_BURN");
      expect(refusal.message).toContain(why);
    }
    expect((await readOrder(h, tenant, placed.orderId)).status).toBe("CREATED");
    // The plan's own transfer is accepted, once.
    const hash = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, hash)).status).toBe(200);
    expect((await errorOf(await submitBurn(h, tenant, other.orderId, hash), 409)).code).toBe(
      "BURN_ALREADY_USED",
    );
  });

  it("returns a deposit to its sender on the intermediate chain, every unit, with a transfer carrying the return commitment", async () => {
    const placed = await placeOrder(h, tenant, undefined, "30", "intermediate");
    const hash = await sendPlan(h, placed);
    const before = await sourceUsdcOf(h, placed.user.address, "intermediate");
    expect((await submitBurn(h, tenant, placed.orderId, hash)).status).toBe(200);
    const returned = await adminRequest(h, `/admin/settlements/orders/${placed.orderId}/return`, {
      method: "POST",
      body: { reason: "the partner asked to cancel" },
    });
    expect(returned.status).toBe(202);
    for (
      let poll = 0;
      poll < 20 && (await readOrder(h, tenant, placed.orderId)).status !== "RETURNED";
      poll++
    ) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    const order = await readOrder(h, tenant, placed.orderId);
    expect(order).toMatchObject({ status: "RETURNED", fundsStatus: "RETURNED_TO_SOURCE", health: "HEALTHY" });
    expect(order.timeline.map((entry) => entry.kind)).toEqual([
      "ORDER_CREATED",
      "DEPOSIT_VERIFIED",
      "RETURN_REQUESTED",
      "RETURNED",
    ]);
    expect(await sourceUsdcOf(h, placed.user.address, "intermediate")).toBe(before + placed.totalDebit);
    const back = order.timeline.at(-1);
    const sent = await sandboxPublicClient(sourceOf(h, "intermediate")).getTransaction({
      hash: back?.txHash as Hex,
    });
    expect(sent.input.toLowerCase().endsWith(returnCommitment(placed.orderId).slice(2))).toBe(true);
  });
});
