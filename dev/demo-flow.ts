import { createPublicClient, createWalletClient, formatUnits, type Hex, http } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { erc20Abi } from "../lib/kernel/chain/abis";
import { viemChainOf } from "../lib/kernel/chain/viem-chain";
import {
  Copm,
  type SandboxChain,
  type SettlementSourceChain,
  verifyBurnPlan,
  verifyWebhook,
} from "../sdk/src";
import { apiCaller, newOrganization } from "./demo-api";
import { printSettlementReceipt } from "./demo-receipt";
import { LOCAL_PLAN_SIGNER } from "./local-defaults";
import { type ReceivedWebhook, startWebhookReceiver } from "./webhook-receiver";

export interface DemoResult {
  orderId: string;
  /** The demo organization's key: what a caller reads the order with afterwards. */
  apiKey: string;
  /** The chain the USDC left, as the quote answered it. */
  sourceChainId: number;
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
 * DELIVERED and the COPm balance read from the destination chain; from the organization's default
 * source chain, or from `sourceChain` (an id or a name). Every partner call goes through
 * the SDK (sdk/), and a webhook receiver on loopback, set as the integration's endpoint, verifies
 * every event it is sent with the SDK's verifyWebhook, as a partner's would; only the operator's
 * admin calls are plain fetches. `npm run demo` and the workerd suite both run it.
 */
export async function runDemoSettlement(options: {
  apiUrl: string;
  adminToken: string;
  log?: (line: string) => void;
  deadlineMs?: number;
  /** The service's plan signer as it was published to the partner (the local one by default). */
  planSigner?: `0x${string}`;
  /** The source chain by its id or its name (any case), as `npm run demo -- --source` takes it. */
  sourceChain?: string;
}): Promise<DemoResult> {
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const log = options.log ?? (() => {});
  const deadlineMs = options.deadlineMs ?? 60_000;

  const call = apiCaller(apiUrl);

  const { organizationId, apiKey } = await newOrganization(call, options.adminToken, "Demo wallet", {
    burnPlan: true,
  });
  log(`1. organization ${organizationId}, burn plan enabled, key ${apiKey.slice(0, 14)}…`);
  const copm = new Copm({ baseUrl: apiUrl, apiKey, language: "en" });

  const verifiedEvents = new Map<string, string>();
  let secret: string | undefined;
  const onWebhook = (request: ReceivedWebhook) => {
    if (!secret) return;
    const event = verifyWebhook(secret, request.body, request.headers);
    const again = verifiedEvents.has(event.id) ? " (again: same webhook-id)" : "";
    verifiedEvents.set(event.id, event.type);
    log(`   webhook ${event.type} ${event.id}, signature verified${again}`);
  };
  const inbox = await startWebhookReceiver({ onReceive: onWebhook });
  try {
    const { data: endpoint } = await copm.putWebhookEndpoint({ body: { url: inbox.url } });
    if (!("secret" in endpoint) || !endpoint.secret)
      throw new Error("the new endpoint came without its secret");
    secret = endpoint.secret;
    log(`   webhook endpoint ${inbox.url}, signing secret ${secret.slice(0, 10)}…`);
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
    const { chains } = (await copm.getSandboxNetwork()).data;
    const destination = chainOf(chains, "destination");
    const source = await sourceChainOf(copm, options.sourceChain);
    const user = privateKeyToAccount(generatePrivateKey());
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await copm.sandboxFaucet({
      body: { address: user.address, chainId: source.chainId, token: "USDC", amount: "150" },
    });
    log(`2. wallet ${user.address} funded with 150 USDC on ${source.name} (${source.chainId})`);

    const { data: quote } = await copm.createSettlementQuote({
      body: {
        sendAmountUsdc: "100",
        sourceAddress: user.address,
        destinationAddress: recipient,
        ...(options.sourceChain === undefined ? {} : { sourceChain: source.chainId }),
      },
    });
    log(
      `3. quote ${quote.quoteId} from chain ${quote.sourceChainId}: burn ${quote.totalDebitUsdc} USDC, expect ${quote.expectedCopAmount} COPm, at least ${quote.copAmountMin}`,
    );

    const { orderId, burnHash } = await orderAndBurn({
      copm,
      quoteId: quote.quoteId,
      user,
      chains,
      planSigner: options.planSigner ?? LOCAL_PLAN_SIGNER,
      log,
    });
    const burned = Date.now();
    const { data: report } = await copm.submitSettlementBurn({
      path: { orderId },
      body: { txHash: burnHash },
    });
    log(`5. burn submitted: ${report.status} / ${report.fundsStatus}`);

    let last = "";
    for (;;) {
      const { data: current } = await copm.getSettlementOrder({ path: { orderId } });
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
    const { data: delivered } = await copm.getSettlementOrder({ path: { orderId } });
    log("   receipt:");
    printSettlementReceipt(delivered.receipt, log);
    return {
      orderId,
      apiKey,
      sourceChainId: quote.sourceChainId,
      secondsToDelivery,
      recipient,
      copmDelivered,
      copAmountMin: quote.copAmountMin,
    };
  }
}

export function chainOf(chains: SandboxChain[], role: SandboxChain["role"]): SandboxChain {
  const chain = chains.find((c) => c.role === role);
  if (!chain) throw new Error(`discovery lists no ${role} chain`);
  return chain;
}

/** A `--source` the service does not list: the demo stops before any money moves. */
export class UnknownSourceChainError extends Error {}

/**
 * The source chain named by its id or its name (any case), as the service lists them for the
 * organization; unnamed, the organization's default. Looked up before the faucet, which takes an id.
 */
async function sourceChainOf(copm: Copm, named: string | undefined): Promise<SettlementSourceChain> {
  const { data: sources } = (await copm.listSettlementSourceChains()).data;
  const wanted = named?.trim().toLowerCase();
  const chain = sources.find((candidate) =>
    wanted === undefined
      ? candidate.isDefault
      : String(candidate.chainId) === wanted || candidate.name.toLowerCase() === wanted,
  );
  if (chain) return chain;
  const listed = sources.map((candidate) => `${candidate.chainId} (${candidate.name})`).join(", ");
  throw new UnknownSourceChainError(
    named === undefined
      ? "the service lists no default source chain"
      : `unknown source chain "${named}": the service lists ${listed}`,
  );
}

/**
 * What a partner does between a quote and the burn report: the order (with an idempotency key), the
 * signed burn plan verified against the service's published signer, and its steps sent from the
 * user's wallet on the chain each step names. Answers the order and the burn's hash.
 */
export async function orderAndBurn(input: {
  copm: Copm;
  quoteId: string;
  user: PrivateKeyAccount;
  /** The sandbox network's chains, where the plan's chain is found. */
  chains: SandboxChain[];
  planSigner: `0x${string}`;
  log?: (line: string) => void;
}): Promise<{ orderId: string; burnHash: Hex }> {
  const { copm, quoteId, user } = input;
  const log = input.log ?? (() => {});
  const { data: order } = await copm.createSettlementOrder({
    headers: { "idempotency-key": `demo-${quoteId}` },
    body: { quoteId, reference: "demo" },
  });
  const plan = order.execution.burnPlan;
  if (!plan) throw new Error("the order carries no burn plan (is the burn plan enabled?)");
  const verified = await verifyBurnPlan({
    expectedSigner: input.planSigner,
    orderId: order.orderId,
    quoteId,
    depositor: user.address,
    plan,
  });
  if (!verified) throw new Error("the burn plan's signature does not verify");
  log(
    `4. order ${order.orderId} from ${order.execution.chain} (${order.execution.chainId}); burn plan signed by ${plan.signer}, signature verified`,
  );

  let burnHash: Hex = "0x";
  for (const step of plan.steps) {
    // The plan, not the caller, says where each step goes: the order's source chain.
    const source = input.chains.find((chain) => chain.chainId === step.chainId);
    if (!source)
      throw new Error(`the burn plan names chain ${step.chainId}, which the network does not list`);
    const wallet = createWalletClient({
      account: user,
      chain: viemChainOf(source),
      transport: http(source.rpcUrl),
    });
    const reader = createPublicClient({ chain: viemChainOf(source), transport: http(source.rpcUrl) });
    burnHash = await wallet.sendTransaction({
      to: step.to as Hex,
      data: step.data as Hex,
      value: BigInt(step.value),
    });
    const receipt = await reader.waitForTransactionReceipt({ hash: burnHash });
    log(`   ${step.type}: ${burnHash} (${receipt.status})`);
  }
  return { orderId: order.orderId, burnHash };
}
