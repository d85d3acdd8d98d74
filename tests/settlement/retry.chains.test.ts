import { and, eq } from "drizzle-orm";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_TRADING_LIMIT,
  exchangeIdOf,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxTokenAbi,
  sandboxWalletClient,
} from "../../dev/chains";
import { mentoBrokerAbi } from "../../lib/kernel/chain/abis";
import type { FaultInjector } from "../../lib/settlement/payments";
import { advanceOrder } from "../../lib/settlement/progress/advance";
import { settlementOrders, settlementTransactions } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { quietContext } from "../harness/context";
import { enableBurnPlan } from "../harness/settlement";
import { adminRequest, createTenant, type Tenant } from "../harness/tenants";

class Crash extends Error {}
const USDM = 10n ** 18n;
/** Mento's first trading-limit window on USDm for USDm/COPm: 100 USDm per 300 s. */
const LIMIT = { ...DEFAULT_TRADING_LIMIT, limit0: 100 };

describe("a leg whose payment reverted", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: { limits: { "USDm/COPm": LIMIT } } });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  const ctx = (faults?: FaultInjector) => quietContext(h, faults);
  const order = async (id: string) =>
    (await h.database.db.select().from(settlementOrders).where(eq(settlementOrders.id, id)))[0];
  const exchanges = (id: string) =>
    h.database.db
      .select()
      .from(settlementTransactions)
      .where(and(eq(settlementTransactions.orderId, id)));

  it("sets aside a Mento exchange mined reverted under the trading limit and signs it afresh once the limit frees", async () => {
    const placed = await placeOrder(h, tenant);
    expect((await submitBurn(h, tenant, placed.orderId, await sendPlan(h, placed))).status).toBe(200);

    // Stop the job right after the exchange is signed and recorded, before it is broadcast.
    let stopped = false;
    const stopAtExchange: FaultInjector = {
      at(point, purpose) {
        if (stopped || point !== "after-record" || purpose !== "exchange") return;
        stopped = true;
        throw new Crash("stopped before broadcasting the exchange");
      },
    };
    for (let poll = 0; poll < 30 && !stopped; poll++) {
      await advanceOrder(ctx(stopAtExchange), placed.orderId).catch((error: unknown) => {
        if (!(error instanceof Crash)) throw error;
      });
      h.clock.advance(5_000);
    }
    expect(stopped).toBe(true);

    // Meanwhile another trader uses up most of the window's USDm limit.
    if (!h.network) throw new Error("no chains");
    const destination = sandboxChainOf(h.network, "destination");
    const reader = sandboxPublicClient(destination);
    const operator = sandboxWalletClient(destination, sandboxOperator);
    const { usdm, copm, broker, exchangeProvider } = destination.contracts as Record<string, Hex>;
    const confirm = async (hash: Promise<Hex>) => reader.waitForTransactionReceipt({ hash: await hash });
    await confirm(
      operator.writeContract({
        address: usdm as Hex,
        abi: sandboxTokenAbi,
        functionName: "mint",
        args: [sandboxOperator.address, 60n * USDM],
      }),
    );
    await confirm(
      operator.writeContract({
        address: usdm as Hex,
        abi: sandboxTokenAbi,
        functionName: "approve",
        args: [broker as Hex, 60n * USDM],
      }),
    );
    await confirm(
      operator.writeContract({
        address: broker as Hex,
        abi: mentoBrokerAbi,
        functionName: "swapIn",
        args: [exchangeProvider as Hex, exchangeIdOf("USDm/COPm"), usdm as Hex, copm as Hex, 60n * USDM, 0n],
      }),
    );

    // The recorded exchange goes out as signed and is mined reverted ("L0 Exceeded"): no COPm moved,
    // and the reverted swap is set aside so the exchange is priced and signed again on the next look.
    await advanceOrder(ctx(), placed.orderId);
    expect(await order(placed.orderId)).toMatchObject({
      status: "ROUTED",
      fundsStatus: "USDM_ON_DESTINATION",
    });
    const reverted = (await exchanges(placed.orderId)).find((t) =>
      t.purpose.startsWith("exchange:reverted:"),
    );
    expect(reverted?.status).toBe("reverted");

    // While the window lasts the fresh price sees the limit: the order waits and says why.
    await advanceOrder(ctx(), placed.orderId);
    expect((await order(placed.orderId))?.status).toBe("ROUTED");
    expect((await exchanges(placed.orderId)).filter((t) => t.purpose === "exchange")).toEqual([]);

    // Once the limit's window has passed, the exchange goes out afresh on its own.
    h.clock.advance((LIMIT.timestep0 + 60) * 1000);
    // A real chain keeps making blocks; the automining sandbox needs one to show the new time.
    await reader.request({ method: "hardhat_mine" as never, params: ["0x1"] as never });
    for (let poll = 0; poll < 20 && (await order(placed.orderId))?.status !== "DELIVERED"; poll++) {
      await advanceOrder(ctx(), placed.orderId);
      h.clock.advance(5_000);
    }
    expect(await order(placed.orderId)).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const sent = await exchanges(placed.orderId);
    expect(sent.map((t) => `${t.purpose.replace(/:stx_.*/, "")}=${t.status}`).sort()).toEqual([
      "delivery=success",
      "exchange:reverted=reverted",
      "exchange=success",
      "route=success",
    ]);
    // The operator's retry sets aside what reverted and looks again; here nothing is left to set aside.
    const retried = await adminRequest(h, `/admin/settlements/orders/${placed.orderId}/retry`, {
      method: "POST",
    });
    expect(retried.status).toBe(202);
    expect(await retried.json()).toEqual({ orderId: placed.orderId, setAside: 0 });
  });
});
