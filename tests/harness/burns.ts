import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PrivateKeyAccount,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type SandboxChain, sandboxChainOf, sandboxPublicClient } from "../../dev/chains";
import { localSettlementVars } from "../../dev/local-defaults";
import {
  type CreateSettlementOrderResponse,
  route as createOrderRoute,
} from "../../functions/settlement/create-order";
import { route as createQuoteRoute } from "../../functions/settlement/create-quote";
import { erc20Abi, FINALITY_STANDARD, tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { addressToBytes32, orderHookData } from "../../lib/kernel/chain/forwarding";
import { viemChainOf } from "../../lib/kernel/chain/viem-chain";
import { parseAmount } from "../../lib/kernel/money";
import type { Harness } from "./app";
import { bodyOf } from "./bodies";
import { createOrder, partnerRequest, readOrder } from "./settlement";
import type { Tenant } from "./tenants";

export interface PlacedOrder {
  user: PrivateKeyAccount;
  orderId: string;
  quoteId: string;
  totalDebit: bigint;
  maxFee: bigint;
  /** The signed burn plan; none while the organization's burn plan is not enabled (pending_burn_plan). */
  plan: CreateSettlementOrderResponse["execution"]["burnPlan"];
  /** The chain the user's USDC leaves. */
  chain: SandboxChain;
}

export function usdcUnits(text: string): bigint {
  // parseAmount takes amounts a client may send (above 0); a fee the service answers may be 0.
  if (text === "0") return 0n;
  const parsed = parseAmount(text, 6);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.units;
}

/** Where a test's USDC may start: either source chain, or the intermediate chain itself (a transfer). */
export type StartKey = "source" | "sourceB" | "intermediate";

/** A chain a settlement may start from: the default source chain unless named. */
export function sourceOf(h: Harness, key: StartKey = "source"): SandboxChain {
  if (!h.network) throw new Error("the harness has no chains");
  return sandboxChainOf(h.network, key);
}

/** A holder's USDC on a source chain (the default one unless named): what a return gives back to. */
export function sourceUsdcOf(h: Harness, holder: Hex, key: StartKey = "source"): Promise<bigint> {
  const source = sourceOf(h, key);
  return sandboxPublicClient(source).readContract({
    address: source.contracts.usdc as Hex,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder],
  });
}

export function clientsOn(chain: SandboxChain, account: PrivateKeyAccount) {
  const viemChain = viemChainOf(chain);
  return {
    reader: createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl), pollingInterval: 10 }),
    wallet: createWalletClient({ account, chain: viemChain, transport: http(chain.rpcUrl) }),
  };
}

/** A funded user, a quote from their wallet, and an order with a signed burn plan (not yet sent). */
export async function placeOrder(
  h: Harness,
  tenant: Tenant,
  user = privateKeyToAccount(generatePrivateKey()),
  /** USDC sent, or the COPm the destination must receive (the quote solves for what is sent). */
  amount: string | { receiveAmountCop: string } = "50",
  /** The source chain, named in the quote; absent, the quote names none (the default source chain). */
  sourceKey?: StartKey,
): Promise<PlacedOrder> {
  const chain = sourceOf(h, sourceKey);
  const faucet = await partnerRequest(h, tenant, "/api/integrations/sandbox/faucet", {
    method: "POST",
    body: { address: user.address, chainId: chain.chainId, token: "USDC", amount: "1000" },
  });
  if (faucet.status !== 200) throw new Error(`faucet: ${await faucet.text()}`);
  const quote = await bodyOf(
    await partnerRequest(h, tenant, "/api/integrations/settlements/quotes", {
      method: "POST",
      body: {
        ...(typeof amount === "string" ? { sendAmountUsdc: amount } : amount),
        sourceAddress: user.address,
        destinationAddress: user.address,
        ...(sourceKey ? { sourceChain: chain.chainId } : {}),
      },
    }),
    createQuoteRoute,
    201,
  );
  const order = await bodyOf(
    await createOrder(h, tenant, quote.quoteId, `burn-${quote.quoteId}`),
    createOrderRoute,
    201,
  );
  return {
    user,
    orderId: order.orderId,
    quoteId: quote.quoteId,
    totalDebit: usdcUnits(quote.totalDebitUsdc),
    maxFee: usdcUnits(quote.transferUpfrontFeeUsdc),
    plan: order.execution.burnPlan,
    chain,
  };
}

/** The user sends the plan's steps as given; the burn's hash. */
export async function sendPlan(_h: Harness, placed: PlacedOrder): Promise<Hex> {
  if (!placed.plan) throw new Error(`order ${placed.orderId} has no burn plan`);
  const { reader, wallet } = clientsOn(placed.chain, placed.user);
  let hash: Hex = "0x";
  for (const step of placed.plan.steps) {
    hash = await wallet.sendTransaction({
      to: step.to as Hex,
      data: step.data as Hex,
      value: BigInt(step.value),
    });
    await reader.waitForTransactionReceipt({ hash });
  }
  return hash;
}

/**
 * The user burns with parameters of the test's choosing (approving exactly what is burned); by
 * default what the order's plan says, hook data with the order's commitment included.
 */
export async function burnWith(
  _h: Harness,
  placed: PlacedOrder,
  change: Partial<{
    amount: bigint;
    destinationDomain: number;
    mintRecipient: Hex;
    burnToken: Hex;
    maxFee: bigint;
    minFinalityThreshold: number;
    hookData: Hex;
    gas: bigint;
  }>,
  chain: SandboxChain = placed.chain,
): Promise<Hex> {
  const { reader, wallet } = clientsOn(chain, placed.user);
  const token = change.burnToken ?? (chain.contracts.usdc as Hex);
  const messenger = chain.contracts.tokenMessenger as Hex;
  const amount = change.amount ?? placed.totalDebit;
  await reader.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [messenger, amount],
    }),
  });
  const hash = await wallet.writeContract({
    address: messenger,
    abi: tokenMessengerV2Abi,
    functionName: "depositForBurnWithHook",
    args: [
      amount,
      change.destinationDomain ?? 6,
      addressToBytes32(change.mintRecipient ?? (localSettlementVars().SETTLEMENT_ACCOUNT_ADDRESS as Hex)),
      token,
      addressToBytes32(zeroAddress),
      change.maxFee ?? placed.maxFee,
      // The quote's finality: Standard, as every test tenant burns unless it opted into Fast.
      change.minFinalityThreshold ?? FINALITY_STANDARD,
      change.hookData ?? orderHookData(placed.orderId),
    ],
    ...(change.gas ? { gas: change.gas } : {}),
  });
  await reader.waitForTransactionReceipt({ hash });
  return hash;
}

export function submitBurn(h: Harness, tenant: Tenant, orderId: string, txHash: string) {
  return partnerRequest(h, tenant, `/api/integrations/settlements/orders/${orderId}/burn`, {
    method: "POST",
    body: { txHash },
    headers: { "accept-language": "en" },
  });
}

/**
 * An order placed, burned as its plan says and carried to DELIVERED by the job queue, a poll at a
 * time on the harness clock: the order and its burn's hash.
 */
export async function deliveredOrder(
  h: Harness,
  tenant: Tenant,
  amount: Parameters<typeof placeOrder>[3] = "50",
  sourceKey?: Parameters<typeof placeOrder>[4],
): Promise<PlacedOrder & { burnHash: Hex }> {
  const placed = await placeOrder(h, tenant, undefined, amount, sourceKey);
  const burnHash = await sendPlan(h, placed);
  const reported = await submitBurn(h, tenant, placed.orderId, burnHash);
  if (reported.status !== 200) throw new Error(`burn report: ${reported.status} ${await reported.text()}`);
  const status = async () => (await readOrder(h, tenant, placed.orderId)).status;
  for (let poll = 0; poll < 20 && (await status()) !== "DELIVERED"; poll++) {
    await h.jobs.drain();
    h.clock.advance(5_000);
  }
  if ((await status()) !== "DELIVERED") throw new Error(`order ${placed.orderId} was not delivered`);
  return { ...placed, burnHash };
}
