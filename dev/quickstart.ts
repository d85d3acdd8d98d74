// The README's quick start, as it runs (`npm run quickstart` against `npm run dev`; a test keeps the
// README's copy equal to this file): a sandbox settlement from a quote to DELIVERED with the SDK.

import { Copm, planTransactions, verifyBurnPlan } from "@copm/integrations-sdk";
import { createPublicClient, createWalletClient, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const copm = new Copm({
  baseUrl: process.env.COPM_API_URL ?? "http://127.0.0.1:8787",
  apiKey: `${process.env.COPM_API_KEY}`,
});
const PLAN_SIGNER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"; // published by the service: the local stack's

const user = privateKeyToAccount(generatePrivateKey()); // the user's wallet, funded by the sandbox faucet
const { data: quote } = await copm.createSettlementQuote({
  body: { sendAmountUsdc: "50", sourceAddress: user.address, destinationAddress: user.address },
});
// The USDC leaves the chain the quote names.
const { chains } = (await copm.getSandboxNetwork()).data;
const source = chains.find((chain) => chain.chainId === quote.sourceChainId);
if (!source) throw new Error("no source chain");
await copm.sandboxFaucet({
  body: { address: user.address, chainId: source.chainId, token: "USDC", amount: "60" },
});

const { data: order } = await copm.createSettlementOrder({ body: { quoteId: quote.quoteId } }); // key made by the SDK
const plan = order.execution.burnPlan;
if (!plan) throw new Error("no burn plan: ask the operator to enable it");
const ours = {
  orderId: order.orderId,
  quoteId: quote.quoteId,
  depositor: user.address,
  expectedSigner: PLAN_SIGNER,
};
if (!(await verifyBurnPlan({ ...ours, plan }))) throw new Error("the burn plan is not the service's");

const wallet = createWalletClient({ account: user, transport: http(source.rpcUrl) });
const chain = createPublicClient({ transport: http(source.rpcUrl) });
let txHash: Hex = "0x";
for (const transaction of planTransactions(plan)) {
  txHash = await wallet.sendTransaction({ chain: null, ...transaction });
  await chain.waitForTransactionReceipt({ hash: txHash });
}
await copm.submitSettlementBurn({ path: { orderId: order.orderId }, body: { txHash } });

for (let status = ""; status !== "DELIVERED"; await new Promise((resolve) => setTimeout(resolve, 1_000))) {
  const { data: now } = await copm.getSettlementOrder({ path: { orderId: order.orderId } });
  if (now.status !== status) console.log(new Date().toISOString().slice(11, 19), now.status, now.fundsStatus);
  status = now.status;
}
