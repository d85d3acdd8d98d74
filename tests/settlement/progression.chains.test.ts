import { type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf } from "../../dev/chains";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { parseAmount } from "../../lib/kernel/money";
import { settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { clientsOn, placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { enableBurnPlan, readOrder } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

describe("settlement progression to verified delivery", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  const read = (orderId: string) => readOrder(h, tenant, orderId);

  it("carries a burned order through every leg to DELIVERED, with the COPm read on the destination chain", async () => {
    const placed = await placeOrder(h, tenant, undefined, "120");
    const burnHash = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, burnHash)).status).toBe(200);

    // Drain the scheduler, moving the clock a poll at a time; no test sleeps.
    for (let poll = 0; poll < 20 && (await read(placed.orderId)).status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    const order = await read(placed.orderId);
    expect(order).toMatchObject({
      status: "DELIVERED",
      health: "HEALTHY",
      fundsStatus: "DELIVERED_TO_DESTINATION",
    });
    expect(order.timeline.map((e) => `${e.kind}:${e.status}:${e.fundsStatus}`)).toEqual([
      "ORDER_CREATED:CREATED:IN_USER_WALLET",
      "BURN_VERIFIED:BURNED:BURNED_ON_SOURCE",
      "ATTESTATION_REQUESTED:BURNED:AWAITING_ATTESTATION",
      "ATTESTED:ATTESTED:AWAITING_ATTESTATION",
      "FORWARDED_MINT:MINTED:USDC_ON_INTERMEDIATE",
      "ROUTE_SENT:ROUTING:IN_TRANSIT_TO_DESTINATION",
      "ROUTE_COMPLETED:ROUTED:USDM_ON_DESTINATION",
      "EXCHANGED:ROUTED:COPM_ON_DESTINATION",
      "DELIVERED:DELIVERED:DELIVERED_TO_DESTINATION",
    ]);
    const network = h.network;
    if (!network) throw new Error("no chains");
    const destination = sandboxChainOf(network, "destination");
    const legsWithChain = order.timeline.filter(
      (e) => e.kind !== "ORDER_CREATED" && e.kind !== "ATTESTATION_REQUESTED",
    );
    for (const leg of legsWithChain) expect(leg.txHash, leg.kind).toMatch(/^0x[0-9a-f]{64}$/);

    // The delivery, read from the chain itself: a COPm Transfer of at least the floor to the user.
    const delivery = order.timeline.at(-1);
    const { reader } = clientsOn(destination, placed.user);
    const receipt = await reader.getTransactionReceipt({ hash: delivery?.txHash as Hex });
    const transfer = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs })[0];
    const floor = parseAmount(order.quote.copAmountMin, 18);
    if (!floor.ok) throw new Error("floor");
    expect(receipt.status).toBe("success");
    expect(transfer?.args.to).toBe(placed.user.address);
    expect(transfer && transfer.args.value >= floor.units).toBe(true);
    const balance = await reader.readContract({
      address: destination.contracts.copm as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [placed.user.address],
    });
    expect(balance).toBe(transfer?.args.value);

    // Each payment of the settlement account was recorded once and mined.
    const sent = await h.database.db.select().from(settlementTransactions);
    const ofOrder = sent.filter((t) => t.orderId === placed.orderId);
    expect(ofOrder.map((t) => t.purpose).sort()).toEqual(["delivery", "exchange", "route"]);
    expect(ofOrder.every((t) => t.status === "success")).toBe(true);
    // The allowances the route and the exchange spent are the account's own, one per chain and spender.
    const allowances = sent.filter((t) => t.purpose === "allowance");
    expect(allowances.map((t) => [t.orderId, t.chainId, t.status])).toEqual([
      [null, 31332, "success"],
      [null, 31333, "success"],
    ]);
  });
});
