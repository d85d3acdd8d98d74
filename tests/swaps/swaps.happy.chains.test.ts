import { erc20Abi, type Hex } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxChainOf } from "../../dev/chains";
import { route as confirmSwap } from "../../functions/swaps/confirm-swap";
import { route as listSwaps } from "../../functions/swaps/list-swaps";
import { type PrepareSwapResponse, route as prepareSwap } from "../../functions/swaps/prepare-swap";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { clientsOn } from "../harness/burns";
import { partnerRequest } from "../harness/settlement";
import { createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true });
}, 60_000);
afterAll(() => h.close());

const destination = () => {
  if (!h.network) throw new Error("no chains");
  return sandboxChainOf(h.network, "destination");
};

async function funded(tenant: Tenant, token: string, amount: string) {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const faucet = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
    method: "POST",
    body: { address: wallet.address, chainRole: "destination", token, amount },
  });
  expect(faucet.status, await faucet.clone().text()).toBe(200);
  return wallet;
}

async function prepare(tenant: Tenant, body: Record<string, unknown>) {
  const response = await partnerRequest(h, tenant, "/api/integrations/swaps/prepare", {
    method: "POST",
    body,
  });
  return bodyOf(response, prepareSwap, 201);
}

/** The wallet sends the approval when asked, then the swap exactly as prepared; the swap's hash. */
async function signAndSend(wallet: PrivateKeyAccount, prepared: PrepareSwapResponse): Promise<Hex> {
  const { reader, wallet: client } = clientsOn(destination(), wallet);
  if (prepared.approval) {
    const approval = await client.sendTransaction({
      to: prepared.approval.target as Hex,
      data: prepared.approval.calldata as Hex,
    });
    expect((await reader.waitForTransactionReceipt({ hash: approval })).status).toBe("success");
  }
  const hash = await client.sendTransaction({
    to: prepared.transaction.target as Hex,
    data: prepared.transaction.calldata as Hex,
  });
  expect((await reader.waitForTransactionReceipt({ hash })).status).toBe("success");
  return hash;
}

function confirm(tenant: Tenant, intentId: string, txHash: Hex) {
  return partnerRequest(h, tenant, `/api/integrations/swaps/${intentId}/confirm`, {
    method: "POST",
    body: { txHash },
  });
}

const balanceOf = (token: Hex, holder: Hex) =>
  clientsOn(destination(), privateKeyToAccount(generatePrivateKey())).reader.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });

describe("swaps on the local destination chain", () => {
  const cases = [
    { tokenIn: "USDm", tokenOut: "COPm", amountIn: "25000000000000000000", hops: 1, faucet: "100" },
    { tokenIn: "USDC", tokenOut: "COPm", amountIn: "25000000", hops: 2, faucet: "100" },
    { tokenIn: "USDT", tokenOut: "COPm", amountIn: "25000000", hops: 2, faucet: "100" },
    { tokenIn: "COPm", tokenOut: "USDT", amountIn: "100000000000000000000000", hops: 2, faucet: "200000" },
  ];
  for (const pair of cases) {
    it(`swaps ${pair.tokenIn} → ${pair.tokenOut} in one transaction (${pair.hops === 1 ? "the broker's swapIn for one hop" : "the router for two hops"}), recorded from the logs and listed`, async () => {
      const tenant = await createTenant(h);
      const wallet = await funded(tenant, pair.tokenIn, pair.faucet);
      const prepared = await prepare(tenant, {
        wallet: wallet.address,
        tokenIn: pair.tokenIn,
        tokenOut: pair.tokenOut,
        amountIn: pair.amountIn,
      });
      expect(prepared.quote.path).toHaveLength(pair.hops);
      expect(prepared.approval, "a fresh wallet has no allowance").toBeDefined();
      expect(BigInt(prepared.quote.minAmountOut)).toBe(
        (BigInt(prepared.quote.expectedAmountOut) * 9950n) / 10_000n,
      );
      const tokenOut = prepared.quote.path.at(-1) as { assetOut: Hex };
      const before = await balanceOf(tokenOut.assetOut, wallet.address);
      const hash = await signAndSend(wallet, prepared);
      const received = (await balanceOf(tokenOut.assetOut, wallet.address)) - before;

      const swap = await bodyOf(await confirm(tenant, prepared.intentId, hash), confirmSwap, 200);
      expect(swap).toMatchObject({
        status: "confirmed",
        txHash: hash.toLowerCase(),
        amountInSwapped: pair.amountIn,
        amountOutReceived: received.toString(),
      });
      expect(received >= BigInt(prepared.quote.minAmountOut)).toBe(true);
      // The same hash on the same intent answers the recorded swap.
      expect(await (await confirm(tenant, prepared.intentId, hash)).json()).toEqual(swap);

      const listed = await bodyOf(
        await partnerRequest(h, tenant, `/api/integrations/swaps?integration_id=${tenant.integrationId}`),
        listSwaps,
        200,
      );
      expect(listed.swaps.map((s) => s.intentId)).toEqual([prepared.intentId]);
    });
  }

  it("asks for no approval when the wallet's allowance already covers the amount", async () => {
    const tenant = await createTenant(h);
    const wallet = await funded(tenant, "USDm", "100");
    const first = await prepare(tenant, {
      wallet: wallet.address,
      tokenIn: "USDm",
      tokenOut: "COPm",
      amountIn: "1000000000000000000",
    });
    const { reader, wallet: client } = clientsOn(destination(), wallet);
    if (!first.approval) throw new Error("expected an approval");
    const approval = await client.sendTransaction({
      to: first.approval.target as Hex,
      data: first.approval.calldata as Hex,
    });
    await reader.waitForTransactionReceipt({ hash: approval });
    const second = await prepare(tenant, {
      wallet: wallet.address,
      tokenIn: "USDm",
      tokenOut: "COPm",
      amountIn: "1000000000000000000",
    });
    expect(second.approval).toBeUndefined();
  });

  it("never lists a prepared intent that was not confirmed", async () => {
    const tenant = await createTenant(h);
    const wallet = await funded(tenant, "USDm", "10");
    await prepare(tenant, {
      wallet: wallet.address,
      tokenIn: "USDm",
      tokenOut: "COPm",
      amountIn: "1000000000000000000",
    });
    const listed = await bodyOf(
      await partnerRequest(h, tenant, `/api/integrations/swaps?integration_id=${tenant.integrationId}`),
      listSwaps,
      200,
    );
    expect(listed.swaps).toEqual([]);
  });
});
