import { encodeFunctionData, type Hex, parseUnits, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSettlementVars } from "../../dev/local-defaults";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { erc20Abi, FINALITY_STANDARD, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { addressToBytes32, orderHookData } from "../../lib/kernel/chain/forwarding";
import type { Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { sourceOf, sourceUsdcOf, submitBurn, usdcUnits } from "../harness/burns";
import {
  copmFor,
  createOrder,
  orderEvents,
  partnerRequest,
  readOrder,
  settlementSuite,
} from "../harness/settlement";
import { smartWallet } from "../harness/smart-wallets";
import { adminRequest, type Tenant } from "../harness/tenants";
import { mintOfDepositor, returnedMint } from "../harness/unclaimed";

/**
 * A smart wallet's batch can hold two burns that both carry an order's commitment: here 1 USDC, then
 * the order's own amount. The burn verification accepts the second (it is the order's, field by
 * field); Circle's attestation and the mint must then be that burn's too, found by what its message
 * carries and its nonce, never the transaction's first message.
 */
describe("a transaction with two burns for one order", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  it("is attested and minted by the burn the order verified, not the first one in the transaction; the other burn's mint is returned to the wallet", async () => {
    const source = sourceOf(h);
    const usdc = source.contracts.usdc as Hex;
    const messenger = source.contracts.tokenMessenger as Hex;
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await smartWallet(h, owner, { role: "source" });
    for (const address of [wallet.address, owner.address]) {
      const funded = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
        method: "POST",
        body: { address, chainRole: "source", token: "USDC", amount: "100" },
      });
      expect(funded.status).toBe(200);
    }
    const { data: quote } = await copmFor(h, tenant).createSettlementQuote({
      body: { sendAmountUsdc: "50.24", sourceAddress: wallet.address, destinationAddress: owner.address },
    });
    const { orderId } = await bodyOf(
      await createOrder(h, tenant, quote.quoteId, `batch-${quote.quoteId}`),
      createOrderRoute,
      201,
    );
    const totalDebit = usdcUnits(quote.totalDebitUsdc);
    const maxFee = usdcUnits(quote.transferUpfrontFeeUsdc);
    const burn = (amount: bigint, fee: bigint) => ({
      target: messenger,
      data: encodeFunctionData({
        abi: tokenMessengerV2Abi,
        functionName: "depositForBurnWithHook",
        args: [
          amount,
          6,
          addressToBytes32(localSettlementVars().SETTLEMENT_ACCOUNT_ADDRESS as Hex),
          usdc,
          addressToBytes32(zeroAddress),
          fee,
          FINALITY_STANDARD,
          orderHookData(orderId),
        ],
      }),
    });
    const one = parseUnits("1", 6);
    const hash = await wallet.batch([
      {
        target: usdc,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "approve",
          args: [messenger, one + totalDebit],
        }),
      },
      // No fee allowed on the first: its principal (1.00) is no test amount of the local vendors.
      burn(one, 0n),
      burn(totalDebit, maxFee),
    ]);
    expect((await submitBurn(h, tenant, orderId, hash)).status).toBe(200);

    for (let poll = 0; poll < 30 && (await readOrder(h, tenant, orderId)).status !== "DELIVERED"; poll++) {
      await h.jobs.drain();
      h.clock.advance(5_000);
    }
    const order = await readOrder(h, tenant, orderId);
    expect(order).toMatchObject({ status: "DELIVERED", health: "HEALTHY" });
    const events = await orderEvents(h, orderId);
    const verified = events.find((event) => event.kind === "BURN_VERIFIED");
    // The order's burn is the transaction's second DepositForBurn (the approval's Approval log, then the
    // first burn's logs, come before it).
    expect(verified?.detail).toMatchObject({ amount: totalDebit.toString() });
    const minted = events.find((event) => event.kind === "FORWARDED_MINT");
    // What the settlement account received is the order's burn less Circle's fee: 50.24 USDC and more,
    // never the 1 USDC of the first burn.
    expect(BigInt(String(minted?.detail?.amount))).toBe(
      totalDebit - BigInt(String(minted?.detail?.feeCollected)),
    );
    expect(BigInt(String(minted?.detail?.amount))).toBeGreaterThan(usdcUnits("50.24"));

    // The batch's other burn minted 1 USDC to the settlement account that no order claims: the
    // operator finds it and returns it to the wallet that burned it.
    const extra = await mintOfDepositor(h, { txHash: hash, depositor: wallet.address });
    expect(extra).toMatchObject({ amountUsdc: "1", returnable: true, claimableBy: null });
    const before = await sourceUsdcOf(h, wallet.address);
    const asked = await adminRequest(h, `/admin/settlements/unclaimed/${extra.id}/return`, {
      method: "POST",
      body: { reason: "the batch's extra burn" },
    });
    expect(asked.status).toBe(202);
    const returned = await returnedMint(h, extra.id);
    const received = usdcUnits(returned.return?.receivedUsdc ?? "0");
    expect(received).toBeGreaterThan(0n);
    expect(received + usdcUnits(returned.return?.feeCollectedUsdc ?? "0")).toBe(one);
    expect(await sourceUsdcOf(h, wallet.address)).toBe(before + received);
  });
});
