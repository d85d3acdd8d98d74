import { type Hex, numberToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundFreshWallet, sandboxChainOf, sandboxPublicClient, sandboxWalletClient } from "../../dev/chains";
import { messageTransmitterV2Abi } from "../../lib/kernel/chain/abis";
import { orderHookData } from "../../lib/kernel/chain/forwarding";
import { irisAttestation } from "../../lib/vendors/circle/iris-attestation";
import type { Harness } from "../harness/app";
import { placeOrder, sendPlan, submitBurn } from "../harness/burns";
import { orderEvents, readOrder, settlementSuite } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

/**
 * A mint the service did not send and Circle did not report: Circle's forward failed (`.71`) and a
 * stranger relayed the attested message with `receiveMessage` (anyone may), long enough ago that
 * more than 10,000 blocks of the intermediate chain came after it (42 minutes of Arbitrum's, 5.5
 * hours of Base's). The service finds the mint by its nonce from the burn's time onward, in ranges
 * an RPC provider accepts, and names who minted it.
 */
describe("a forwarded mint found whoever sent it and however long ago", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  it("relayed by a stranger 10,001 blocks ago: the order is MINTED by that mint, named `other`, nothing relayed twice", async () => {
    if (!h.network || !h.vendors) throw new Error("no chains");
    const intermediate = sandboxChainOf(h.network, "intermediate");
    const placed = await placeOrder(h, tenant, undefined, "40.71");
    const burnTxHash = await sendPlan(h, placed);
    expect((await submitBurn(h, tenant, placed.orderId, burnTxHash)).status).toBe(200);

    // Circle attests; its forward fails; a stranger reads the message from Iris and relays it.
    h.clock.advance(10_000);
    const iris = irisAttestation({ baseUrl: h.vendors.circle.url });
    const [message] = (await iris.messages({ sourceDomain: 3, burnTxHash })).filter(
      (candidate) =>
        candidate.described?.hookData?.toLowerCase() === orderHookData(placed.orderId).toLowerCase(),
    );
    expect(message).toMatchObject({ status: "complete", forwardState: "failed" });
    const stranger = await fundFreshWallet(intermediate);
    const relayed = await sandboxWalletClient(intermediate, stranger).writeContract({
      address: intermediate.contracts.messageTransmitter as Hex,
      abi: messageTransmitterV2Abi,
      functionName: "receiveMessage",
      args: [message?.message as Hex, message?.attestation as Hex],
    });
    const reader = sandboxPublicClient(intermediate);
    expect((await reader.waitForTransactionReceipt({ hash: relayed })).status).toBe("success");
    // Blocks of the same second: the chain keeps to the harness clock.
    await reader.request({ method: "hardhat_mine", params: [numberToHex(10_001), "0x0"] } as never);

    for (
      let poll = 0;
      poll < 30 && (await readOrder(h, tenant, placed.orderId)).status !== "DELIVERED";
      poll++
    ) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    expect(await readOrder(h, tenant, placed.orderId)).toMatchObject({
      status: "DELIVERED",
      health: "HEALTHY",
    });
    const minted = (await orderEvents(h, placed.orderId)).find((event) => event.kind === "FORWARDED_MINT");
    expect(minted?.txHash).toBe(relayed);
    expect(minted?.detail).toMatchObject({ mintedBy: "other", mintCaller: stranger.address });
  });
});
