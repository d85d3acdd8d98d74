import {
  createPublicClient,
  createWalletClient,
  formatUnits,
  type Hex,
  http,
  type PrivateKeyAccount,
  parseEther,
  parseUnits,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { AdminGetHealthResponse } from "../../functions/settlement/admin-health";
import { erc20Abi, sandboxMintAbi } from "../../lib/kernel/chain/abis";
import { viemChainOf } from "../../lib/kernel/chain/viem-chain";
import { oneOperatorTransactionAtATime } from "../../lib/sandbox/operator-queue";
import { Copm, CopmApiError, verifyBurnPlan, verifyPayoutPlan } from "../../sdk/src";
import type { SandboxChain, SandboxNetwork } from "../chains";
import { apiCaller, newOrganization, walletSession } from "../demo-api";
import { printReceiptLegs, printSettlementReceipt } from "../demo-receipt";

/** One outcome the drive asked for, as the service reported it. */
interface DriveOutcome {
  what: string;
  wanted: string;
  got: string;
  lines: string[];
}

export interface DriveReport {
  mode: string;
  chains: Array<{ role: string; chainId: number | undefined }>;
  outcomes: DriveOutcome[];
  /** What GET /admin/health said once the flows were done, a line per chain and vendor. */
  operator: string[];
}

export interface DriveOptions {
  apiUrl: string;
  adminToken: string;
  network: SandboxNetwork;
  /** The local mailbox: the email codes, as the user reads them in their inbox. */
  mailboxUrl: string;
  planSigner: Hex;
  /** How long each flow may take (default 5 minutes). */
  deadlineMs?: number;
}

/**
 * What a partner does in production, with live keys through the public API, on the rehearsal's
 * mainnet-shaped universe: a settlement to DELIVERED, a BRE-B payout to `completed`, a swap to
 * confirmed, and a settlement the operator returns (RETURNED), side by side. Nothing here is a
 * mock-mode helper: money comes from the tokens' owner (as a user's wallet holds it), the email code
 * from the mailbox, the KYC approval from the provider's page.
 */
export async function driveRehearsal(options: DriveOptions): Promise<DriveReport> {
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const deadlineMs = options.deadlineMs ?? 5 * 60_000;
  const health = (await (await fetch(`${apiUrl}/health`)).json()) as {
    mode: string;
    checks: { chains: Array<{ role: string; chainId?: number }> };
  };
  const call = apiCaller(apiUrl);
  const { apiKey } = await newOrganization(call, options.adminToken, "Rehearsal wallet", { burnPlan: true });
  const copm = new Copm({ baseUrl: apiUrl, apiKey, language: "en" });
  const context: FlowContext = { ...options, apiUrl, deadlineMs, copm, call };
  const outcomes = await Promise.all([
    settlement(context, { returned: false }),
    payout(context),
    swap(context),
    settlement(context, { returned: true }),
  ]);
  const operator = await call<AdminGetHealthResponse>("/admin/health", options.adminToken);
  return {
    mode: `${health.mode} (key ${apiKey.slice(0, 10)}…)`,
    chains: health.checks.chains.map((chain) => ({ role: chain.role, chainId: chain.chainId })),
    outcomes,
    operator: [
      ...operator.chains.map(
        (chain) =>
          `${chain.name} (${chain.chainId}): settlement account ${chain.balanceStatus}, ${formatUnits(BigInt(chain.balance ?? "0"), 18)} of gas against ${formatUnits(BigInt(chain.threshold ?? "0"), 18)}; head ${chain.headAgeSeconds} s old`,
      ),
      ...operator.vendors.map(
        (vendor) =>
          `${vendor.vendor}: last success ${vendor.lastSuccessAt ?? "never"}, last error ${vendor.lastErrorAt ?? "never"}`,
      ),
    ],
  };
}

interface FlowContext extends DriveOptions {
  deadlineMs: number;
  copm: Copm;
  call: ReturnType<typeof apiCaller>;
}

function chainOf(network: SandboxNetwork, role: SandboxChain["role"]): SandboxChain {
  const chain = network.chains.find((candidate) => candidate.role === role);
  if (!chain) throw new Error(`no ${role} chain`);
  return chain;
}

function clientsOf(chain: SandboxChain, account: PrivateKeyAccount) {
  const transport = http(chain.rpcUrl);
  return {
    reader: createPublicClient({ chain: viemChainOf(chain), transport, pollingInterval: 250 }),
    wallet: createWalletClient({ account, chain: viemChainOf(chain), transport }),
  };
}

/**
 * A user's wallet on a chain, holding gas and tokens as a user's does: given by the tokens' owner
 * and the chain's funded account (the operator), never through the service.
 */
export async function fundedWallet(
  network: SandboxNetwork,
  role: SandboxChain["role"],
  tokens: Array<{ token: Hex; amount: bigint }>,
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
): Promise<PrivateKeyAccount> {
  const chain = chainOf(network, role);
  const { reader, wallet: operator } = clientsOf(chain, privateKeyToAccount(network.operator.privateKey));
  // The operator's transactions on a chain go one at a time, whatever flows fund wallets at once.
  await oneOperatorTransactionAtATime(chain.rpcUrl, async () => {
    const sent: Hex[] = [await operator.sendTransaction({ to: account.address, value: parseEther("10") })];
    for (const { token, amount } of tokens) {
      sent.push(
        await operator.writeContract({
          address: token,
          abi: sandboxMintAbi,
          functionName: "mint",
          args: [account.address, amount],
        }),
      );
    }
    for (const hash of sent) {
      const receipt = await reader.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`funding ${account.address} reverted (${hash})`);
    }
  });
  return account;
}

/** Tries `work` until it stops failing with one of `codes` (the chain's confirmations, mostly). */
async function patiently<T>(codes: string[], deadlineMs: number, work: () => Promise<T>): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof CopmApiError) || !codes.includes(error.code) || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(error.retryAfterMs ?? 1_000, 2_000)));
    }
  }
}

async function settlement(context: FlowContext, options: { returned: boolean }): Promise<DriveOutcome> {
  const { copm, network } = context;
  const lines: string[] = [];
  const source = chainOf(network, "source");
  const usdc = source.contracts.usdc as Hex;
  const user = await fundedWallet(network, "source", [{ token: usdc, amount: parseUnits("150", 6) }]);
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const { data: quote } = await copm.createSettlementQuote({
    body: {
      sendAmountUsdc: options.returned ? "60" : "100",
      sourceAddress: user.address,
      destinationAddress: recipient,
    },
  });
  const { data: order } = await copm.createSettlementOrder({
    headers: { "idempotency-key": `rehearsal-${quote.quoteId}` },
    body: { quoteId: quote.quoteId },
  });
  const plan = order.execution.burnPlan;
  if (!plan) throw new Error("the order carries no burn plan");
  const signed = await verifyBurnPlan({
    expectedSigner: context.planSigner,
    orderId: order.orderId,
    quoteId: quote.quoteId,
    depositor: user.address,
    plan,
  });
  if (!signed) throw new Error("the burn plan's signature does not verify");
  const { reader, wallet } = clientsOf(source, user);
  let burnHash: Hex = "0x";
  for (const step of plan.steps) {
    burnHash = await wallet.sendTransaction({
      to: step.to as Hex,
      data: step.data as Hex,
      value: BigInt(step.value),
    });
    await reader.waitForTransactionReceipt({ hash: burnHash });
  }
  lines.push(
    `order ${order.orderId}: ${quote.totalDebitUsdc} USDC burned on chain ${source.chainId} (${burnHash})`,
  );
  await patiently(["BURN_PENDING_CONFIRMATIONS"], context.deadlineMs, () =>
    copm.submitSettlementBurn({ path: { orderId: order.orderId }, body: { txHash: burnHash } }),
  );
  if (options.returned) {
    await context.call(`/admin/settlements/orders/${order.orderId}/return`, context.adminToken, {
      method: "POST",
      body: { reason: "rehearsal: the partner asked to cancel" },
    });
    lines.push("the operator returns it (POST /admin/settlements/orders/{orderId}/return)");
  }
  const wanted = options.returned ? "RETURNED" : "DELIVERED";
  const started = Date.now();
  for (;;) {
    const { data: now } = await copm.getSettlementOrder({ path: { orderId: order.orderId } });
    if (now.status === wanted || now.status === "RETURNED" || now.status === "DELIVERED") {
      lines.push(
        `${now.status} / ${now.fundsStatus} ${((Date.now() - started) / 1000).toFixed(1)} s after the burn report`,
      );
      for (const entry of now.timeline) {
        lines.push(
          `  ${entry.kind}${entry.chainId ? ` chain ${entry.chainId}` : ""}${entry.txHash ? ` ${entry.txHash}` : ""}`,
        );
      }
      lines.push("receipt:");
      // A delivered order's receipt must sum (printSettlementReceipt throws when it does not).
      (now.status === "DELIVERED" ? printSettlementReceipt : printReceiptLegs)(now.receipt, (line) =>
        lines.push(line),
      );
      return {
        what: options.returned ? "settlement returned" : "settlement",
        wanted,
        got: now.status,
        lines,
      };
    }
    if (Date.now() - started > context.deadlineMs) {
      return {
        what: "settlement",
        wanted,
        got: `${now.status} / ${now.health} after ${context.deadlineMs / 1000} s`,
        lines,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function payout(context: FlowContext): Promise<DriveOutcome> {
  const { copm, network } = context;
  const lines: string[] = [];
  const destination = chainOf(network, "destination");
  const usdc = destination.contracts.usdc as Hex;
  const user = await fundedWallet(network, "destination", [{ token: usdc, amount: parseUnits("60", 6) }]);
  const withWallet = await walletSession(copm, user);
  const email = `rehearsal-${user.address.slice(2, 10).toLowerCase()}@example.com`;
  const { data: sent } = await copm.sendBrebOtp({
    headers: withWallet,
    body: { email, userAddress: user.address },
  });
  if ("debugCode" in sent && sent.debugCode) throw new Error("live mode answered a debugCode");
  const code = await codeFromMailbox(context.mailboxUrl, email, context.deadlineMs);
  const { data: verified } = await copm.verifyBrebOtp({
    headers: withWallet,
    body: { email, userAddress: user.address, code },
  });
  lines.push(
    `wallet ${user.address} signed in; email code read from the mailbox; KYC ${verified.kyc.status}`,
  );
  if (verified.kyc.status !== "approved") {
    if (!verified.kyc.kycLink) throw new Error("no KYC link to approve at");
    // The person approves on the provider's page; the provider calls the service back, signed.
    const decided = await fetch(`${verified.kyc.kycLink}/decision`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "decision=approved",
    });
    if (decided.status !== 200) throw new Error(`the KYC page refused the approval: ${decided.status}`);
    lines.push("KYC approved on the provider's page");
  }
  const { data: quote } = await copm.quoteBrebPayout({
    query: { destinationCop: "100000", fromToken: "USDC" },
  });
  const { data: creation } = await patiently(["KYC_REQUIRED"], context.deadlineMs, () =>
    copm.createBrebPayout({
      headers: { "idempotency-key": `rehearsal-${quote.quoteId}`, ...withWallet },
      body: {
        quoteId: quote.quoteId,
        userAddress: user.address,
        breBKey: "3001234567",
        accountOwnerName: "Ana Pérez",
      },
    }),
  );
  const plan = creation.deposit;
  const signed = await verifyPayoutPlan({
    payoutId: creation.payout.payoutId,
    quoteId: quote.quoteId,
    depositor: user.address,
    expectedSigner: context.planSigner,
    plan,
  });
  if (!signed) throw new Error("the payout plan's signature does not verify");
  const { reader, wallet } = clientsOf(destination, user);
  let depositHash: Hex = "0x";
  for (const step of plan.steps) {
    depositHash = await wallet.sendTransaction({
      to: step.to as Hex,
      data: step.data as Hex,
      value: BigInt(step.value),
    });
    await reader.waitForTransactionReceipt({ hash: depositHash });
  }
  lines.push(
    `payout ${creation.payout.payoutId}: ${quote.sourceAmount} USDC deposited through ${plan.steps.at(-1)?.to} (${depositHash})`,
  );
  await patiently(["DEPOSIT_PENDING_CONFIRMATIONS"], context.deadlineMs, () =>
    copm.confirmBrebPayout({ path: { payoutId: creation.payout.payoutId }, body: { txHash: depositHash } }),
  );
  const started = Date.now();
  for (;;) {
    const { data: now } = await copm.getBrebPayout({ path: { payoutId: creation.payout.payoutId } });
    if (now.status === "completed" || now.status === "failed" || now.status === "refunded") {
      lines.push(`${now.status}, BRE-B transaction ${now.brebTransactionId ?? "none"}`);
      lines.push(`receipt: ${JSON.stringify(now.receipt?.fees ?? [])}`);
      return { what: "BRE-B payout", wanted: "completed", got: now.status, lines };
    }
    if (Date.now() - started > context.deadlineMs) {
      return {
        what: "BRE-B payout",
        wanted: "completed",
        got: `${now.status} after ${context.deadlineMs / 1000} s`,
        lines,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function swap(context: FlowContext): Promise<DriveOutcome> {
  const { copm, network } = context;
  const lines: string[] = [];
  const destination = chainOf(network, "destination");
  const usdm = destination.contracts.usdm as Hex;
  const user = await fundedWallet(network, "destination", [{ token: usdm, amount: parseUnits("20", 18) }]);
  const { data: prepared } = await copm.prepareSwap({
    body: {
      wallet: user.address,
      tokenIn: "USDm",
      tokenOut: "COPm",
      amountIn: parseUnits("20", 18).toString(),
    },
  });
  const { reader, wallet } = clientsOf(destination, user);
  if (prepared.approval) {
    const approval = await wallet.sendTransaction({
      to: prepared.approval.target as Hex,
      data: prepared.approval.calldata as Hex,
    });
    await reader.waitForTransactionReceipt({ hash: approval });
  }
  const hash = await wallet.sendTransaction({
    to: prepared.transaction.target as Hex,
    data: prepared.transaction.calldata as Hex,
  });
  const mined = await reader.waitForTransactionReceipt({ hash });
  lines.push(
    `intent ${prepared.intentId}: 20 USDm for COPm through ${prepared.transaction.target} (${hash}, ${mined.status})`,
  );
  const { data: confirmed } = await patiently(["SWAP_PENDING_CONFIRMATIONS"], context.deadlineMs, () =>
    copm.confirmSwap({ path: { intentId: prepared.intentId }, body: { txHash: hash } }),
  );
  const copmOut = await reader.readContract({
    address: destination.contracts.copm as Hex,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [user.address],
  });
  lines.push(
    `${confirmed.status}: the wallet holds ${formatUnits(copmOut, 18)} COPm on chain ${destination.chainId}`,
  );
  return { what: "swap", wanted: "confirmed", got: confirmed.status, lines };
}

/** The six-digit code of the newest email to `email`, read from the local mailbox's API. */
async function codeFromMailbox(mailboxUrl: string, email: string, deadlineMs: number): Promise<string> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const { data } = (await (await fetch(`${mailboxUrl}/api/emails`)).json()) as {
      data: Array<{ to: string[]; text: string }>;
    };
    const code = data.find((mail) => mail.to.includes(email))?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > until) throw new Error(`no code reached ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
