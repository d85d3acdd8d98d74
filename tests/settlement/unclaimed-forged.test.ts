import { encodeFunctionData, type Hex, keccak256, parseUnits, toHex, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LOCAL_CIRCLE_ATTESTER_KEY,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxWalletClient,
} from "../../dev/chains";
import { localSettlementVars } from "../../dev/local-defaults";
import { messageTransmitterV2Abi } from "../../lib/kernel/chain/abis";
import { encodeCctpBurnMessage } from "../../lib/kernel/chain/cctp-message";
import { addressToBytes32, orderHookData } from "../../lib/kernel/chain/forwarding";
import type { Harness } from "../harness/app";
import { burnWith, placeOrder, sourceOf, sourceUsdcOf } from "../harness/burns";
import { partnerRequest, settlementSuite } from "../harness/settlement";
import { smartWallet } from "../harness/smart-wallets";
import { adminRequest, type Tenant } from "../harness/tenants";
import { returnedMint, unclaimedMints } from "../harness/unclaimed";

/**
 * CCTP v2 attests arbitrary messages (MessageTransmitterV2.sendMessage) to any recipient contract:
 * an attacker relays its one real 3 USDC burn and, in the same transaction, two generic messages
 * whose bodies copy a burn body to the settlement account. Only the real one is a mint: the scan
 * takes a message only from the TokenMessenger the messenger accepts for its domain, and pairs it
 * with the MintAndWithdraw its own handling emitted.
 */
describe("generic CCTP messages dressed as burns", () => {
  let h: Harness;
  let tenant: Tenant;
  beforeAll(async () => {
    ({ h, tenant } = await settlementSuite());
  }, 60_000);
  afterAll(() => h.close());

  it("are not mints: one 3 USDC mint is listed and returned, never other orders' money", async () => {
    if (!h.network) throw new Error("no chains");
    const intermediate = sandboxChainOf(h.network, "intermediate");
    const source = sourceOf(h);
    const settlement = localSettlementVars().SETTLEMENT_ACCOUNT_ADDRESS as Hex;
    const transmitter = intermediate.contracts.messageTransmitter as Hex;
    const attester = privateKeyToAccount(LOCAL_CIRCLE_ATTESTER_KEY);
    const reader = sandboxPublicClient(intermediate);

    // Other orders' money pooled in the settlement account on the intermediate chain.
    const pooled = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
      method: "POST",
      body: { address: settlement, chainRole: "intermediate", token: "USDC", amount: "100" },
    });
    expect(pooled.status).toBe(200);

    // The attacker's one real burn: 3 USDC to the settlement account, hook data naming no order.
    const placed = await placeOrder(h, tenant);
    const attacker = placed.user.address;
    const amount = parseUnits("3", 6);
    const burnTx = await burnWith(h, placed, { amount, maxFee: 0n, hookData: orderHookData("ord_nobody") });
    const startBalance = await sourceUsdcOf(h, attacker);

    const body = {
      burnToken: addressToBytes32(source.contracts.usdc as Hex),
      mintRecipient: addressToBytes32(settlement),
      amount,
      messageSender: addressToBytes32(attacker),
      maxFee: 0n,
      feeExecuted: 0n,
      expirationBlock: 0n,
      hookData: "0x" as Hex,
    };
    const header = {
      sourceDomain: source.cctpDomain ?? 3,
      destinationDomain: intermediate.cctpDomain ?? 6,
      destinationCaller: addressToBytes32(zeroAddress),
      minFinalityThreshold: 2000,
      finalityThresholdExecuted: 2000,
    };
    // What Circle attests for the real burn (sender and recipient: the messengers).
    const genuine = encodeCctpBurnMessage({
      ...header,
      ...body,
      nonce: keccak256(burnTx),
      sender: addressToBytes32(source.contracts.tokenMessenger as Hex),
      recipient: addressToBytes32(intermediate.contracts.tokenMessenger as Hex),
    });

    // A contract whose every call answers true: the recipient of the generic messages
    // (IMessageHandlerV2.handleReceiveFinalizedMessage returns true).
    const deployer = sandboxWalletClient(intermediate, sandboxOperator);
    const deployHash = await deployer.sendTransaction({
      data: "0x600a600c600039600a6000f3600160005260206000f3",
    });
    const handler = (await reader.waitForTransactionReceipt({ hash: deployHash })).contractAddress as Hex;
    expect(handler).toBeTruthy();

    // Generic messages the attacker sent with sendMessage on the source chain: Circle attests them too.
    const forged = [1, 2].map((n) =>
      encodeCctpBurnMessage({
        ...header,
        ...body,
        nonce: keccak256(toHex(`forged-${n}-${burnTx}`)),
        sender: addressToBytes32(attacker),
        recipient: addressToBytes32(handler),
      }),
    );
    const attest = (message: Hex) => attester.sign({ hash: keccak256(message) });
    const relay = async (message: Hex) => ({
      target: transmitter,
      data: encodeFunctionData({
        abi: messageTransmitterV2Abi,
        functionName: "receiveMessage",
        args: [message, await attest(message)],
      }),
    });
    // One transaction: the real mint, then the two generic messages.
    const wallet = await smartWallet(h, sandboxOperator, { role: "intermediate" });
    await wallet.batch([await relay(genuine), ...(await Promise.all(forged.map(relay)))]);

    const mints = (await unclaimedMints(h)).filter(
      (mint) => mint.depositor.toLowerCase() === attacker.toLowerCase(),
    );
    // Only 3 USDC reached the settlement account from the attacker: one mint, the generic messages
    // none (before the scan paired each message with its own MintAndWithdraw and checked its sender,
    // three 3 USDC mints were listed and returned, 8.4 USDC back for 3 in).
    expect(mints.map((mint) => [mint.amountUsdc, mint.returnable])).toEqual([["3", true]]);

    // The operator returns them (the attacker's ticket: "my burn named no order").
    for (const mint of mints) {
      const asked = await adminRequest(h, `/admin/settlements/unclaimed/${mint.id}/return`, {
        method: "POST",
        body: { reason: "depositor's ticket" },
      });
      expect(asked.status).toBe(202);
    }
    let received = 0n;
    for (const mint of mints) {
      const returned = await returnedMint(h, mint.id);
      received += parseUnits(returned.return?.receivedUsdc ?? "0", 6);
    }
    const gained = (await sourceUsdcOf(h, attacker)) - startBalance;
    // The attacker gets back at most the 3 USDC it put in, never other orders' money.
    expect(gained).toBe(received);
    expect(gained).toBeLessThanOrEqual(amount);
  }, 120_000);
});
