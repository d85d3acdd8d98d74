import { createPublicClient, createWalletClient, formatUnits, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { erc20Abi } from "../lib/kernel/chain/abis";
import { viemChainOf } from "../lib/kernel/chain/viem-chain";
import { Copm, CopmApiError, verifyPayoutPlan } from "../sdk/src";
import { apiCaller, walletSession } from "./demo-api";
import { chainOf } from "./demo-flow";
import { LOCAL_PLAN_SIGNER } from "./local-defaults";

export interface PayoutDemoResult {
  payoutId: string;
  status: string;
  brebTransactionId: string | null;
  secondsToCompleted: number;
  depositAddressReceived: bigint;
  feeWalletReceived: bigint;
  mismatchCode: string;
}

/**
 * One BRE-B payout through the public API, as a partner and its user would, against a running worker
 * with the local stack: the user signs in with the wallet (EIP-4361), proves an email (mock code) and is KYC-approved, gets USDC on the
 * payout chain from the faucet, a quote, a destination check that fails on purpose
 * (`destination_mismatch`: nothing is created), then the payout, whose signed plan is verified and
 * sent from the user's wallet, confirmed by hash, and followed to `completed`. Every partner call
 * goes through the SDK (sdk/); only the operator's admin call is a plain fetch. `npm run demo:payout`
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
  const copm = new Copm({ baseUrl: options.apiUrl, apiKey, language: "en" });
  const user = privateKeyToAccount(generatePrivateKey());
  log(`1. organization ${organization.id}; user wallet ${user.address}`);

  const withWallet = await walletSession(copm, user);
  const email = `demo-${user.address.slice(2, 10).toLowerCase()}@example.com`;
  const { data: sent } = await copm.sendBrebOtp({
    headers: withWallet,
    body: { email, userAddress: user.address },
  });
  const { data: verified } = await copm.verifyBrebOtp({
    headers: withWallet,
    body: { email, userAddress: user.address, code: sent.debugCode ?? "" },
  });
  log(`2. wallet signed in (EIP-4361); email code ${sent.debugCode} verified: KYC ${verified.kyc.status}`);

  const { chains } = (await copm.getSandboxNetwork()).data;
  const destination = chainOf(chains, "destination");
  await copm.sandboxFaucet({
    body: { address: user.address, chainRole: "destination", token: "USDC", amount: "50" },
  });
  log(`3. wallet funded with 50 USDC on ${destination.name}`);

  const { data: quote } = await copm.quoteBrebPayout({
    query: { destinationCop: "100000", fromToken: "USDC" },
  });
  log(
    `4. quote ${quote.quoteId}: 100,000 COP for ${quote.sourceAmount} USDC (${quote.display}; provider gets ${quote.providerAmount}, ${quote.fees.map((fee) => `${fee.type} ${fee.amount}`).join(", ")})`,
  );

  const destinationDetails = { quoteId: quote.quoteId, userAddress: user.address, breBKey: "3001234567" };
  const mismatch = await copm
    .createBrebPayout({
      headers: withWallet,
      body: { ...destinationDetails, accountOwnerName: "Ana mismatch" },
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  if (!(mismatch instanceof CopmApiError) || mismatch.status !== 409)
    throw mismatch ?? new Error("the mismatching owner name was accepted");
  const mismatchCode = mismatch.code;
  log(`5. a wrong owner name: HTTP 409 ${mismatch.code} (${mismatch.nextAction}); no payout created`);

  const { data: creation } = await copm.createBrebPayout({
    headers: { "idempotency-key": `demo-${quote.quoteId}`, ...withWallet },
    body: { ...destinationDetails, accountOwnerName: "Ana Pérez" },
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
      address: plan.tokenAddress as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [holder],
    });
  const depositAddress = plan.depositAddress as Hex;
  const feeWallet = plan.feeWallet as Hex;
  const before = { provider: await balance(depositAddress), fees: await balance(feeWallet) };
  let depositHash: Hex = "0x";
  for (const step of plan.steps) {
    depositHash = await wallet.sendTransaction({
      to: step.to as Hex,
      data: step.data as Hex,
      value: BigInt(step.value),
    });
    const receipt = await reader.waitForTransactionReceipt({ hash: depositHash });
    log(`   ${step.type}: ${depositHash} (${receipt.status})`);
  }
  const { data: confirmed } = await copm.confirmBrebPayout({
    path: { payoutId },
    body: { txHash: depositHash },
  });
  const started = Date.now();
  log(`7. deposit confirmed: ${confirmed.status}`);

  const deadlineMs = options.deadlineMs ?? 60_000;
  let last = "";
  let payout: Awaited<ReturnType<typeof copm.getBrebPayout>>["data"];
  for (;;) {
    payout = (await copm.getBrebPayout({ path: { payoutId } })).data;
    if (payout.status !== last) {
      log(`   +${((Date.now() - started) / 1000).toFixed(1)} s  ${payout.status}`);
      last = payout.status;
    }
    if (payout.status === "completed" || payout.status === "refunded") break;
    if (Date.now() - started > deadlineMs)
      throw new Error(`not completed within ${deadlineMs / 1000} s (${last})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const depositAddressReceived = (await balance(depositAddress)) - before.provider;
  const feeWalletReceived = (await balance(feeWallet)) - before.fees;
  const secondsToCompleted = (Date.now() - started) / 1000;
  log(
    `8. ${payout.status.toUpperCase()} ${secondsToCompleted.toFixed(1)} s after the confirmation, BRE-B transaction ${payout.brebTransactionId}: deposit address ${depositAddress} received ${formatUnits(depositAddressReceived, 6)} USDC, fee wallet ${feeWallet} received ${formatUnits(feeWalletReceived, 6)} USDC`,
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
