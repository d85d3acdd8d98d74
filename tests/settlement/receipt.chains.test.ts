import { createPublicClient, type Hex, http, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxChain } from "../../dev/chains/types";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { createHarness, type Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { enableBurnPlan, readOrder } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

/** Every Transfer value of `token` in a transaction's successful receipt. */
async function transfersIn(
  chain: SandboxChain,
  txHash: string,
  token: string | undefined,
): Promise<bigint[]> {
  const reader = createPublicClient({ transport: http(chain.rpcUrl) });
  const receipt = await reader.getTransactionReceipt({ hash: txHash as Hex });
  expect(receipt.status).toBe("success");
  return parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs })
    .filter((log) => log.address.toLowerCase() === token?.toLowerCase())
    .map((log) => log.args.value);
}

describe("a settlement order's receipt", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    h = await createHarness({ chains: true });
    tenant = await createTenant(h);
    await enableBurnPlan(h, tenant);
  }, 60_000);
  afterAll(() => h.close());

  const read = (orderId: string) => readOrder(h, tenant, orderId);

  it("answers every leg of a delivered order with the amounts its transactions show, and it sums", async () => {
    const placed = await placeOrder(h, tenant, undefined, "120");
    expect((await read(placed.orderId)).receipt).toEqual({
      legs: [],
      fees: [],
      residue: [],
      rates: expect.any(Array),
    });
    const burnHash = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, burnHash)).status).toBe(200);
    for (let poll = 0; poll < 20 && (await read(placed.orderId)).status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    const order = await read(placed.orderId);
    expect(order.status).toBe("DELIVERED");
    const { receipt } = order;
    expect(receipt.legs.map((leg) => leg.leg)).toEqual([
      "burn",
      "cctp_mint",
      "route",
      "exchange",
      "service_fee",
      "delivery",
    ]);

    // Every figure is one its transaction shows: a Transfer of that token and amount.
    const network = h.network;
    if (!network) throw new Error("no chains");
    const chainOf = (chainId: number) => {
      const chain = network.chains.find((candidate) => candidate.chainId === chainId);
      if (!chain) throw new Error(`no chain ${chainId}`);
      return chain;
    };
    const tokenOf = (chainId: number, symbol: string) =>
      ({
        USDC: chainOf(chainId).contracts.usdc,
        USDm: chainOf(chainId).contracts.usdm,
        COPm: chainOf(chainId).contracts.copm,
      })[symbol];
    const [burn, mint, route, exchange, serviceFee, delivery] = receipt.legs;
    if (!burn || !mint || !route || !exchange || !serviceFee || !delivery) throw new Error("legs");
    expect(burn.txHash).toBe(burnHash);
    expect(await transfersIn(chainOf(burn.chainId), burnHash, tokenOf(burn.chainId, "USDC"))).toContain(
      BigInt(burn.amountIn),
    );
    expect(
      await transfersIn(chainOf(mint.chainId), mint.txHash as string, tokenOf(mint.chainId, "USDC")),
    ).toContain(BigInt(mint.amountOut));
    expect(
      await transfersIn(chainOf(route.chainId), route.txHash as string, tokenOf(route.chainId, "USDC")),
    ).toContain(BigInt(route.amountIn));
    const arrival = route.relatedTxHashes[0];
    if (!arrival) throw new Error("no arrival");
    expect(
      await transfersIn(chainOf(arrival.chainId), arrival.txHash, tokenOf(arrival.chainId, "USDm")),
    ).toContain(BigInt(route.amountOut));
    const exchanged = exchange.txHash as string;
    expect(
      await transfersIn(chainOf(exchange.chainId), exchanged, tokenOf(exchange.chainId, "USDm")),
    ).toContain(BigInt(exchange.amountIn));
    expect(
      await transfersIn(chainOf(exchange.chainId), exchanged, tokenOf(exchange.chainId, "COPm")),
    ).toContain(BigInt(exchange.amountOut));
    expect(
      await transfersIn(
        chainOf(delivery.chainId),
        delivery.txHash as string,
        tokenOf(delivery.chainId, "COPm"),
      ),
    ).toContain(BigInt(delivery.amountOut));
    expect(serviceFee.txHash).toBeNull();

    // It sums: the burn is the principal and the upfront fee; Circle's fee, the service's fee, the
    // route's input and what stays (the fee Circle did not take) make up the burn; the route's USDm
    // all went to Mento and Mento's COPm all to the user.
    const usdc = (text: string) => BigInt(Math.round(Number(text) * 1e6)); // the quote's 6-place decimals
    const circleFee = BigInt(receipt.fees.find((fee) => fee.type === "circle")?.amount ?? "0");
    const service = BigInt(receipt.fees.find((fee) => fee.type === "service")?.amount ?? "0");
    expect(BigInt(burn.amountIn)).toBe(
      usdc(order.quote.sendAmountUsdc) + usdc(order.quote.transferUpfrontFeeUsdc),
    );
    expect(BigInt(route.amountIn)).toBe(usdc(order.quote.routeInputUsdc));
    expect(receipt.residue).toEqual([
      {
        token: "USDC",
        chainId: mint.chainId,
        amount: (BigInt(burn.amountIn) - circleFee - service - BigInt(route.amountIn)).toString(),
      },
    ]);
    expect(BigInt(receipt.residue[0]?.amount ?? "-1")).toBe(
      usdc(order.quote.transferUpfrontFeeUsdc) - circleFee,
    );
    expect(exchange.amountIn).toBe(route.amountOut);
    expect(delivery.amountOut).toBe(exchange.amountOut);
    for (const leg of receipt.legs) {
      for (const figure of [leg.amountIn, leg.amountOut, ...leg.movements.map((m) => m.amount)]) {
        expect(figure).toMatch(/^-?\d+$/);
      }
    }
    expect(receipt.rates.map((rate) => rate.achieved)).not.toContain(null);
  });
});
