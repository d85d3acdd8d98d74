import { Webhook } from "standardwebhooks";
import { createPublicClient, createWalletClient, formatUnits, type Hex, http } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { erc20Abi } from "../lib/kernel/chain/abis";
import { viemChainOf } from "../lib/kernel/chain/viem-chain";
import type { BurnPlan } from "../lib/settlement/burn-plan";
import { verifyBurnPlan } from "../sdk/src";
import { type ApiCall, apiCaller } from "./demo-api";
import { LOCAL_PLAN_SIGNER } from "./local-defaults";
import type { DiscoveredChain } from "./sandbox/flows";
import { type ReceivedWebhook, startWebhookReceiver } from "./webhook-receiver";

export interface DemoResult {
  orderId: string;
  secondsToDelivery: number;
  recipient: Hex;
  copmDelivered: bigint;
  copAmountMin: string;
  /** The event types the demo's receiver verified, in the order they first arrived. */
  webhookEvents: string[];
}

/**
 * One whole settlement through the public API, as a partner would, against a running worker with
 * the local stack: an organization with the burn plan enabled, a wallet funded by the faucet, quote,
 * order, the signed burn plan checked and sent, the burn submitted, then the order followed to
 * DELIVERED and the COPm balance read from the destination chain. A webhook receiver on loopback,
 * set as the integration's endpoint, verifies every event it is sent with the `standardwebhooks`
 * package, as a partner's would. `npm run demo` and the workerd suite both run it.
 */
export async function runDemoSettlement(options: {
  apiUrl: string;
  adminToken: string;
  log?: (line: string) => void;
  deadlineMs?: number;
  /** The service's plan signer as it was published to the partner (the local one by default). */
  planSigner?: `0x${string}`;
}): Promise<DemoResult> {
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const log = options.log ?? (() => {});
  const deadlineMs = options.deadlineMs ?? 60_000;

  const call = apiCaller(apiUrl);

  const { organization, apiKey } = await call<{ organization: { id: string }; apiKey: string }>(
    "/admin/organizations",
    options.adminToken,
    { method: "POST", body: { name: "Demo wallet" } },
  );
  await call(`/admin/organizations/${organization.id}`, options.adminToken, {
    method: "PATCH",
    body: { burnPlanEnabled: true },
  });
  log(`1. organization ${organization.id}, burn plan enabled, key ${apiKey.slice(0, 14)}…`);

  const verifiedEvents = new Map<string, string>();
  let verifier: Webhook | undefined;
  const onWebhook = (request: ReceivedWebhook) => {
    if (!verifier) return;
    const event = verifier.verify(request.body, request.headers) as { id: string; type: string };
    const again = verifiedEvents.has(event.id) ? " (again: same webhook-id)" : "";
    verifiedEvents.set(event.id, event.type);
    log(`   webhook ${event.type} ${event.id}, signature verified${again}`);
  };
  const inbox = await startWebhookReceiver({ onReceive: onWebhook });
  try {
    const endpoint = await call<{ secret: string }>("/api/integrations/webhooks/endpoint", apiKey, {
      method: "PUT",
      body: { url: inbox.url },
    });
    verifier = new Webhook(endpoint.secret);
    log(`   webhook endpoint ${inbox.url}, signing secret ${endpoint.secret.slice(0, 10)}…`);
    const result = await settle();
    const waitUntil = Date.now() + 15_000;
    while (![...verifiedEvents.values()].includes("settlement.order.delivered")) {
      if (Date.now() > waitUntil) throw new Error("the settlement.order.delivered webhook did not arrive");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log(`7. webhooks received and verified: ${[...verifiedEvents.values()].join(", ")}`);
    return { ...result, webhookEvents: [...verifiedEvents.values()] };
  } finally {
    await inbox.close();
  }

  async function settle(): Promise<Omit<DemoResult, "webhookEvents">> {
    const { chains } = await call<{ chains: DiscoveredChain[] }>("/api/integrations/sandbox/network", apiKey);
    const source = chainOf(chains, "source");
    const destination = chainOf(chains, "destination");
    const user = privateKeyToAccount(generatePrivateKey());
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await call("/api/integrations/sandbox/faucet", apiKey, {
      method: "POST",
      body: { address: user.address, chainRole: "source", token: "USDC", amount: "150" },
    });
    log(`2. wallet ${user.address} funded with 150 USDC on ${source.name}`);

    const quote = await call<{
      quoteId: string;
      totalDebitUsdc: string;
      copAmountMin: string;
      expectedCopAmount: string;
    }>("/api/integrations/settlements/quotes", apiKey, {
      method: "POST",
      body: { sendAmountUsdc: "100", sourceAddress: user.address, destinationAddress: recipient },
    });
    log(
      `3. quote ${quote.quoteId}: burn ${quote.totalDebitUsdc} USDC, expect ${quote.expectedCopAmount} COPm, at least ${quote.copAmountMin}`,
    );

    const { orderId, burnHash } = await orderAndBurn({
      call,
      apiKey,
      quoteId: quote.quoteId,
      user,
      source,
      planSigner: options.planSigner ?? LOCAL_PLAN_SIGNER,
      log,
    });
    const burned = Date.now();
    const report = await call<{ status: string; fundsStatus: string }>(
      `/api/integrations/settlements/orders/${orderId}/burn`,
      apiKey,
      { method: "POST", body: { txHash: burnHash } },
    );
    log(`5. burn submitted: ${report.status} / ${report.fundsStatus}`);

    let last = "";
    for (;;) {
      const current = await call<{
        status: string;
        fundsStatus: string;
        health: string;
        timeline: Array<{ kind: string; txHash: string | null }>;
      }>(`/api/integrations/settlements/orders/${orderId}`, apiKey);
      const now = `${current.status} / ${current.fundsStatus} / ${current.health}`;
      if (now !== last) {
        const leg = current.timeline.at(-1);
        log(
          `   +${((Date.now() - burned) / 1000).toFixed(1)} s  ${now}${leg?.txHash ? `  (${leg.kind} ${leg.txHash})` : ""}`,
        );
        last = now;
      }
      if (current.status === "DELIVERED") break;
      if (Date.now() - burned > deadlineMs)
        throw new Error(`not delivered within ${deadlineMs / 1000} s (${now})`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const secondsToDelivery = (Date.now() - burned) / 1000;

    const destinationReader = createPublicClient({
      chain: viemChainOf(destination),
      transport: http(destination.rpcUrl),
    });
    const copmDelivered = await destinationReader.readContract({
      address: destination.contracts.copm as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [recipient],
    });
    log(
      `6. DELIVERED ${secondsToDelivery.toFixed(1)} s after the burn: ${recipient} holds ${formatUnits(copmDelivered, 18)} COPm on ${destination.name}`,
    );
    return {
      orderId,
      secondsToDelivery,
      recipient,
      copmDelivered,
      copAmountMin: quote.copAmountMin,
    };
  }
}

export function chainOf(chains: DiscoveredChain[], role: DiscoveredChain["role"]): DiscoveredChain {
  const chain = chains.find((c) => c.role === role);
  if (!chain) throw new Error(`discovery lists no ${role} chain`);
  return chain;
}

/**
 * What a partner does between a quote and the burn report: the order (with an idempotency key), the
 * signed burn plan verified against the service's published signer, and its steps sent from the
 * user's wallet. Answers the order and the burn's hash.
 */
export async function orderAndBurn(input: {
  call: ApiCall;
  apiKey: string;
  quoteId: string;
  user: PrivateKeyAccount;
  source: DiscoveredChain;
  planSigner: `0x${string}`;
  log?: (line: string) => void;
}): Promise<{ orderId: string; burnHash: Hex }> {
  const { call, apiKey, quoteId, user, source } = input;
  const log = input.log ?? (() => {});
  const order = await call<{ orderId: string; execution: { burnPlan: BurnPlan } }>(
    "/api/integrations/settlements/orders",
    apiKey,
    {
      method: "POST",
      headers: { "idempotency-key": `demo-${quoteId}` },
      body: { quoteId, reference: "demo" },
    },
  );
  const plan = order.execution.burnPlan;
  const verified = await verifyBurnPlan({
    expectedSigner: input.planSigner,
    orderId: order.orderId,
    quoteId,
    depositor: user.address,
    plan,
  });
  if (!verified) throw new Error("the burn plan's signature does not verify");
  log(`4. order ${order.orderId}; burn plan signed by ${plan.signer}, signature verified`);

  const wallet = createWalletClient({
    account: user,
    chain: viemChainOf(source),
    transport: http(source.rpcUrl),
  });
  const reader = createPublicClient({ chain: viemChainOf(source), transport: http(source.rpcUrl) });
  let burnHash: Hex = "0x";
  for (const step of plan.steps) {
    burnHash = await wallet.sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value) });
    const receipt = await reader.waitForTransactionReceipt({ hash: burnHash });
    log(`   ${step.type}: ${burnHash} (${receipt.status})`);
  }
  return { orderId: order.orderId, burnHash };
}
