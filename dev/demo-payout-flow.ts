import { createPublicClient, createWalletClient, formatUnits, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { erc20Abi } from "../lib/kernel/chain/abis";
import { viemChainOf } from "../lib/kernel/chain/viem-chain";
import type { SignedPayoutPlan } from "../lib/payouts/payout-plan";
import { verifyPayoutPlan } from "../sdk/src";
import { ApiCallError, apiCaller } from "./demo-api";
import { chainOf } from "./demo-flow";
import { LOCAL_PLAN_SIGNER } from "./local-defaults";
import type { DiscoveredChain } from "./sandbox/flows";

export interface PayoutDemoResult {
  payoutId: string;
  status: string;
  brebTransactionId: string | null;
  secondsToCompleted: number;
  depositAddressReceived: bigint;
  feeWalletReceived: bigint;
  mismatchCode: string;
}

interface PayoutRead {
  status: string;
  brebTransactionId: string | null;
  timeline: Array<{ status: string; detail: string | null }>;
}

/**
 * One BRE-B payout through the public API, as a partner and its user would, against a running worker
 * with the local stack: the user signs in with the wallet (EIP-4361), proves an email (mock code) and is KYC-approved, gets USDC on the
 * payout chain from the faucet, a quote, a destination check that fails on purpose
 * (`destination_mismatch`: nothing is created), then the payout, whose signed plan is verified and
 * sent from the user's wallet, confirmed by hash, and followed to `completed`. `npm run demo:payout`
 * and the workerd suite run it.
 */
export async function runDemoPayout(options: {
  apiUrl: string;
  adminToken: string;
  log?: (line: string) => void;
  deadlineMs?: number;
  /** The service's plan signer as it was published to the partner (the local one by default). */
  planSigner?: `0x${string}`;
}): Promise<PayoutDemoResult> {
  const log = options.log ?? (() => {});
  const call = apiCaller(options.apiUrl);
  const { organization, apiKey } = await call<{ organization: { id: string }; apiKey: string }>(
    "/admin/organizations",
    options.adminToken,
    { method: "POST", body: { name: "Payout demo wallet" } },
  );
  const user = privateKeyToAccount(generatePrivateKey());
  log(`1. organization ${organization.id}; user wallet ${user.address}`);

  const challenge = await call<{ message: string }>("/api/integrations/breb/kyc/wallet/challenge", apiKey, {
    method: "POST",
    body: { userAddress: user.address },
  });
  const { walletSession } = await call<{ walletSession: string }>(
    "/api/integrations/breb/kyc/wallet/session",
    apiKey,
    {
      method: "POST",
      body: { message: challenge.message, signature: await user.signMessage({ message: challenge.message }) },
    },
  );
  const withWallet = { "wallet-session": walletSession };
  const email = `demo-${user.address.slice(2, 10).toLowerCase()}@example.com`;
  const sent = await call<{ debugCode?: string }>("/api/integrations/breb/kyc/otp/send", apiKey, {
    method: "POST",
    headers: withWallet,
    body: { email, userAddress: user.address },
  });
  const verified = await call<{ kyc: { status: string } }>("/api/integrations/breb/kyc/otp/verify", apiKey, {
    method: "POST",
    headers: withWallet,
    body: { email, userAddress: user.address, code: sent.debugCode },
  });
  log(`2. wallet signed in (EIP-4361); email code ${sent.debugCode} verified: KYC ${verified.kyc.status}`);

  const { chains } = await call<{ chains: DiscoveredChain[] }>("/api/integrations/sandbox/network", apiKey);
  const destination = chainOf(chains, "destination");
  await call("/api/integrations/sandbox/faucet", apiKey, {
    method: "POST",
    body: { address: user.address, chainRole: "destination", token: "USDC", amount: "50" },
  });
  log(`3. wallet funded with 50 USDC on ${destination.name}`);

  const quotePath = "/api/integrations/breb/quote?destinationCop=100000&fromToken=USDC";
  const quote = await call<{
    quoteId: string;
    sourceAmount: string;
    providerAmount: string;
    display: string;
    fees: Array<{ type: string; amount: string; bps: number }>;
  }>(quotePath, apiKey);
  log(
    `4. quote ${quote.quoteId}: 100,000 COP for ${quote.sourceAmount} USDC (${quote.display}; provider gets ${quote.providerAmount}, ${quote.fees.map((fee) => `${fee.type} ${fee.amount}`).join(", ")})`,
  );

  let mismatchCode = "";
  try {
    await call("/api/integrations/breb/payouts", apiKey, {
      method: "POST",
      headers: { "idempotency-key": `demo-mismatch-${quote.quoteId}`, ...withWallet },
      body: {
        quoteId: quote.quoteId,
        userAddress: user.address,
        breBKey: "3001234567",
        accountOwnerName: "Ana mismatch",
      },
    });
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.status !== 409) throw error;
    const body = JSON.parse(error.body) as { error: { code: string; nextAction: string } };
    mismatchCode = body.error.code;
    log(`5. a wrong owner name: HTTP 409 ${body.error.code} (${body.error.nextAction}); no payout created`);
  }
  if (!mismatchCode) throw new Error("the mismatching owner name was accepted");

  const creation = await call<{
    payout: { payoutId: string };
    deposit: SignedPayoutPlan & { tokenAddress: Hex; depositAddress: Hex; feeWallet: Hex };
  }>("/api/integrations/breb/payouts", apiKey, {
    method: "POST",
    headers: { "idempotency-key": `demo-${quote.quoteId}`, ...withWallet },
    body: {
      quoteId: quote.quoteId,
      userAddress: user.address,
      breBKey: "3001234567",
      accountOwnerName: "Ana Pérez",
    },
  });
  const { payoutId } = creation.payout;
  const plan = creation.deposit;
  const signed = await verifyPayoutPlan({
    payoutId,
    quoteId: quote.quoteId,
    depositor: user.address,
    expectedSigner: options.planSigner ?? LOCAL_PLAN_SIGNER,
    plan,
  });
  if (!signed) throw new Error("the payout plan's signature does not verify");
  log(`6. payout ${payoutId}; plan signed by ${plan.signer}, signature verified`);

  const transport = http(destination.rpcUrl);
  const reader = createPublicClient({ chain: viemChainOf(destination), transport });
  const wallet = createWalletClient({ account: user, chain: viemChainOf(destination), transport });
  const balance = (holder: Hex) =>
    reader.readContract({
      address: plan.tokenAddress,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [holder],
    });
  const before = { provider: await balance(plan.depositAddress), fees: await balance(plan.feeWallet) };
  let depositHash: Hex = "0x";
  for (const step of plan.steps) {
    depositHash = await wallet.sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value) });
    const receipt = await reader.waitForTransactionReceipt({ hash: depositHash });
    log(`   ${step.type}: ${depositHash} (${receipt.status})`);
  }
  const confirmed = await call<{ status: string }>(
    `/api/integrations/breb/payouts/${payoutId}/confirm`,
    apiKey,
    {
      method: "POST",
      body: { txHash: depositHash },
    },
  );
  const started = Date.now();
  log(`7. deposit confirmed: ${confirmed.status}`);

  const deadlineMs = options.deadlineMs ?? 60_000;
  let last = "";
  let payout: PayoutRead;
  for (;;) {
    payout = await call<PayoutRead>(`/api/integrations/breb/payouts/${payoutId}`, apiKey);
    if (payout.status !== last) {
      log(`   +${((Date.now() - started) / 1000).toFixed(1)} s  ${payout.status}`);
      last = payout.status;
    }
    if (payout.status === "completed" || payout.status === "refunded") break;
    if (Date.now() - started > deadlineMs)
      throw new Error(`not completed within ${deadlineMs / 1000} s (${last})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const depositAddressReceived = (await balance(plan.depositAddress)) - before.provider;
  const feeWalletReceived = (await balance(plan.feeWallet)) - before.fees;
  const secondsToCompleted = (Date.now() - started) / 1000;
  log(
    `8. ${payout.status.toUpperCase()} ${secondsToCompleted.toFixed(1)} s after the confirmation, BRE-B transaction ${payout.brebTransactionId}: deposit address ${plan.depositAddress} received ${formatUnits(depositAddressReceived, 6)} USDC, fee wallet ${plan.feeWallet} received ${formatUnits(feeWalletReceived, 6)} USDC`,
  );
  return {
    payoutId,
    status: payout.status,
    brebTransactionId: payout.brebTransactionId,
    secondsToCompleted,
    depositAddressReceived,
    feeWalletReceived,
    mismatchCode,
  };
}
