import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { encodeFunctionData, type Hex, isHex, keccak256, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { LOCAL_BREB_DEPOSIT_KEY } from "../../dev/breb-provider";
import { type SandboxChain, sandboxChainOf } from "../../dev/chains";
import { LOCAL_BREB_CALLBACK_SECRET } from "../../dev/local-defaults";
import {
  type CreateBrebPayoutResponse,
  route as createPayoutRoute,
} from "../../functions/payouts/create-payout";
import { type GetBrebPayoutResponse, route as getPayoutRoute } from "../../functions/payouts/get-payout";
import { type QuoteBrebPayoutResponse, route as quoteRoute } from "../../functions/payouts/get-quote";
import { route as listEventsRoute } from "../../functions/webhooks/list-events";
import { erc20Abi, payoutDepositorAbi } from "../../lib/kernel/chain/abis";
import { parseAmount, TOKEN_DECIMALS } from "../../lib/kernel/money";
import type { BrebPayoutReport, BrebProvider } from "../../lib/payouts/breb-provider";
import { httpBrebProvider } from "../../lib/vendors/breb/breb-http";
import { brebPayouts } from "../../schema";
import { createHarness, type Harness } from "./app";
import { bodyOf } from "./bodies";
import { clientsOn } from "./burns";
import { rememberWallet, sendCode, verifyCode, walletHeaderIfKnown } from "./identity";
import { partnerRequest } from "./settlement";
import { createTenant, type Tenant } from "./tenants";

/** A caller of the BRE-B routes: a tenant's key, or the miniapp's key-less prefix. */
export type PayoutCaller = Tenant | "miniapp";

export type PayoutQuote = QuoteBrebPayoutResponse;

export type PayoutView = GetBrebPayoutResponse;

/** `value` with `keys` checked to hold hex, typed as viem's Hex (the route's schema says string). */
function withHex<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> & Record<K, Hex> {
  for (const key of keys) expect(isHex(value[key]), `${String(key)}: ${String(value[key])}`).toBe(true);
  return value as Omit<T, K> & Record<K, Hex>;
}

/** What POST …/payouts answers, the deposit's addresses, reference and steps checked as hex. */
function creationWithHex(creation: CreateBrebPayoutResponse) {
  const { deposit } = creation;
  return {
    ...creation,
    deposit: {
      ...withHex(
        deposit,
        "tokenAddress",
        "depositAddress",
        "feeWallet",
        "depositor",
        "payoutRef",
        "signature",
        "signer",
      ),
      steps: deposit.steps.map((step) => withHex(step, "to", "data")),
    },
  };
}

/** What POST …/payouts answers, typed for viem. */
export type PayoutCreation = ReturnType<typeof creationWithHex>;

/** A key a test creates a payout with: well formed, resolved by the local provider to the name sent. */
export const GOOD_KEY = "3001234567";
/** The local provider fails payouts to keys starting 9999, then refunds them on chain. */
export const FAILING_KEY = "9999123456";

export function payoutChain(h: Harness): SandboxChain {
  if (!h.network) throw new Error("the harness has no chains");
  return sandboxChainOf(h.network, "destination");
}

/** A BRE-B route with the tenant's key (or on the miniapp prefix), answers in English. */
export function brebRequest(
  h: Harness,
  caller: PayoutCaller,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  if (caller !== "miniapp") {
    return partnerRequest(h, caller, `/api/integrations/breb${path}`, {
      ...init,
      headers: { "accept-language": "en", ...init.headers },
    });
  }
  return h.app.request(`/api/breb${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", "accept-language": "en", ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/**
 * What the payout suites start from: the app on the local chains with the local BRE-B provider, a
 * tenant, and a user approved for payouts holding `usdc` on the destination chain.
 */
export async function payoutSuite(usdc: string) {
  const h = await createHarness({ chains: true, payouts: true });
  const tenant = await createTenant(h);
  const user = await approvedUser(h, tenant, { usdc });
  return { h, tenant, user };
}

/**
 * A user who proved an email and is KYC-approved (mock mode approves at once) for the caller's
 * integration, with `usdc` USDC (and `copm` COPm, when given) and gas on the payout chain.
 */
export async function approvedUser(
  h: Harness,
  caller: PayoutCaller,
  funds: { usdc?: string; copm?: string } = { usdc: "100" },
): Promise<PrivateKeyAccount> {
  const user = rememberWallet(privateKeyToAccount(generatePrivateKey()));
  const email = `payer-${randomBytes(4).toString("hex")}@example.com`;
  expect((await sendCode(h, caller, email, user.address)).status).toBe(200);
  const verified = await verifyCode(h, caller, email, "123456", user.address);
  expect(verified.status, await verified.clone().text()).toBe(200);
  await fund(h, caller, user.address, funds);
  return user;
}

/** Tokens and gas on the payout chain, from the sandbox faucet (the miniapp has no key: nothing). */
export async function fund(
  h: Harness,
  caller: PayoutCaller,
  address: Hex,
  funds: { usdc?: string; copm?: string },
): Promise<void> {
  const wanted: Array<["USDC" | "COPm", string | undefined]> = [
    ["USDC", funds.usdc],
    ["COPm", funds.copm],
  ];
  for (const [token, amount] of wanted) {
    if (amount === undefined) continue;
    if (caller === "miniapp") throw new Error("fund a miniapp user through its integration's key");
    const faucet = await partnerRequest(h, caller, "/api/integrations/sandbox/faucet", {
      method: "POST",
      body: { address, chainRole: "destination", token, amount },
    });
    expect(faucet.status, await faucet.clone().text()).toBe(200);
  }
}

export function requestQuote(h: Harness, caller: PayoutCaller, destinationCop: string, fromToken: string) {
  return brebRequest(h, caller, `/quote?destinationCop=${destinationCop}&fromToken=${fromToken}`);
}

export async function quoteFor(
  h: Harness,
  caller: PayoutCaller,
  destinationCop = "100000",
  fromToken: "USDC" | "COPm" = "USDC",
): Promise<PayoutQuote> {
  return bodyOf(await requestQuote(h, caller, destinationCop, fromToken), quoteRoute, 200);
}

/** POST …/payouts, with the user's wallet session when the test holds that wallet (unless `headers` say otherwise). */
export async function requestPayout(
  h: Harness,
  caller: PayoutCaller,
  idempotencyKey: string,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
) {
  return brebRequest(h, caller, "/payouts", {
    method: "POST",
    headers: {
      "idempotency-key": idempotencyKey,
      ...(headers ?? (await walletHeaderIfKnown(h, caller, body.userAddress))),
    },
    body,
  });
}

/** The body of a payout request for `quoteId` from `user` to the good key. */
export function payoutBody(
  quoteId: string,
  user: { address: Hex },
  change: Partial<{ breBKey: string; accountOwnerName: string; userAddress: string }> = {},
) {
  return {
    quoteId,
    userAddress: user.address,
    breBKey: GOOD_KEY,
    accountOwnerName: "Ana Pérez",
    ...change,
  };
}

/** A quote and a payout awaiting the user's deposit. */
export async function createdPayout(
  h: Harness,
  caller: PayoutCaller,
  user: { address: Hex },
  options: {
    destinationCop?: string;
    fromToken?: "USDC" | "COPm";
    breBKey?: string;
    accountOwnerName?: string;
  } = {},
): Promise<PayoutCreation> {
  const quote = await quoteFor(h, caller, options.destinationCop, options.fromToken);
  const response = await requestPayout(
    h,
    caller,
    `payout-${quote.quoteId}`,
    payoutBody(quote.quoteId, user, {
      ...(options.breBKey ? { breBKey: options.breBKey } : {}),
      ...(options.accountOwnerName ? { accountOwnerName: options.accountOwnerName } : {}),
    }),
  );
  return creationWithHex(await bodyOf(response, createPayoutRoute, 201));
}

export function units(text: string, token: "USDC" | "COPm" = "USDC"): bigint {
  const parsed = parseAmount(text, TOKEN_DECIMALS[token]);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.units;
}

/** The user sends the plan's two steps as given; the deposit's hash. */
export async function sendDeposit(
  h: Harness,
  user: PrivateKeyAccount,
  creation: PayoutCreation,
): Promise<Hex> {
  const { reader, wallet } = clientsOn(payoutChain(h), user);
  let hash: Hex = "0x";
  for (const step of creation.deposit.steps) {
    hash = await wallet.sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value) });
    expect((await reader.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
  return hash;
}

export interface DepositCall {
  payoutRef: Hex;
  token: Hex;
  amount: bigint;
  fee: bigint;
  depositAddress: Hex;
  feeWallet: Hex;
}

/**
 * `from` calls the depositor directly with the payout's deposit arguments, some changed, after
 * approving exactly amount + fee of the token (unless `approve` is false). With `gas` the call is
 * mined even when it reverts. Answers the deposit's hash once mined.
 */
export async function depositWith(
  h: Harness,
  from: PrivateKeyAccount,
  creation: PayoutCreation,
  change: Partial<DepositCall> & { approve?: boolean; gas?: bigint } = {},
): Promise<Hex> {
  const { reader, wallet } = clientsOn(payoutChain(h), from);
  const args: DepositCall = {
    payoutRef: creation.deposit.payoutRef,
    token: creation.deposit.tokenAddress,
    amount: units(creation.deposit.providerAmount, creation.deposit.token),
    fee: units(creation.deposit.serviceFee, creation.deposit.token),
    depositAddress: creation.deposit.depositAddress,
    feeWallet: creation.deposit.feeWallet,
    ...change,
  };
  if (change.approve !== false) {
    const approval = await wallet.writeContract({
      address: args.token,
      abi: erc20Abi,
      functionName: "approve",
      args: [creation.deposit.depositor, args.amount + args.fee],
    });
    expect((await reader.waitForTransactionReceipt({ hash: approval })).status).toBe("success");
  }
  const hash = await wallet.sendTransaction({
    to: creation.deposit.depositor,
    data: encodeFunctionData({
      abi: payoutDepositorAbi,
      functionName: "deposit",
      args: [args.payoutRef, args.token, args.amount, args.fee, args.depositAddress, args.feeWallet],
    }),
    ...(change.gas ? { gas: change.gas } : {}),
  });
  await reader.waitForTransactionReceipt({ hash });
  return hash;
}

/** `headers` carry the user's wallet session where the caller is the key-less miniapp. */
export function confirmRequest(
  h: Harness,
  caller: PayoutCaller,
  payoutId: string,
  txHash: string,
  headers: Record<string, string> = {},
) {
  return brebRequest(h, caller, `/payouts/${payoutId}/confirm`, {
    method: "POST",
    body: { txHash },
    headers,
  });
}

export async function readPayout(
  h: Harness,
  caller: PayoutCaller,
  payoutId: string,
  headers: Record<string, string> = {},
): Promise<PayoutView> {
  return bodyOf(await brebRequest(h, caller, `/payouts/${payoutId}`, { headers }), getPayoutRoute, 200);
}

/** A payout created, paid by the user as the plan says, and confirmed (deposit_confirmed). */
export async function confirmedPayout(
  h: Harness,
  tenant: Tenant,
  user: PrivateKeyAccount,
  options: Parameters<typeof createdPayout>[3] = {},
): Promise<{ creation: PayoutCreation; payoutId: string; depositHash: Hex }> {
  const creation = await createdPayout(h, tenant, user, options);
  const depositHash = await sendDeposit(h, user, creation);
  const confirmed = await confirmRequest(h, tenant, creation.payout.payoutId, depositHash);
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return { creation, payoutId: creation.payout.payoutId, depositHash };
}

/** The payout rows of an organization, straight from the database. */
export function payoutRowsOf(h: Harness, organizationId: string) {
  return h.database.db.select().from(brebPayouts).where(eq(brebPayouts.organizationId, organizationId));
}

export function payoutRow(h: Harness, payoutId: string) {
  return h.database.db
    .select()
    .from(brebPayouts)
    .where(eq(brebPayouts.id, payoutId))
    .then((rows) => rows[0]);
}

/**
 * A `payout.status` callback signed as the provider signs it (Standard Webhooks, the local secret),
 * at the harness clock unless `signedAt` says otherwise.
 */
export function signedCallback(
  h: Harness,
  report: BrebPayoutReport,
  options: { secret?: string; signedAt?: Date; id?: string } = {},
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ type: "payout.status", data: report });
  const at = options.signedAt ?? h.clock.now();
  const id = options.id ?? `msg_${randomBytes(12).toString("hex")}`;
  return {
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(options.secret ?? LOCAL_BREB_CALLBACK_SECRET).sign(id, at, body),
    },
  };
}

export function postCallback(h: Harness, callback: { body: string; headers: Record<string, string> }) {
  return h.app.request("/callbacks/breb", { method: "POST", body: callback.body, headers: callback.headers });
}

/** A payout provider nobody answers for: a closed port. */
function unreachableProvider(): BrebProvider {
  return httpBrebProvider({ baseUrl: "http://127.0.0.1:9", apiKey: "unused", timeoutMs: 2_000 });
}

/**
 * Runs `work` with the service talking to `provider` (by default an unreachable one; a function gets
 * the real provider to wrap), then puts the real one back.
 */
export async function withPayoutProvider<T>(
  h: Harness,
  provider: BrebProvider | ((real: BrebProvider) => BrebProvider),
  work: () => Promise<T>,
): Promise<T> {
  const payouts = h.deps.providers.payouts;
  const real = payouts.provider;
  if (!real) throw new Error("the harness has no payout provider");
  payouts.provider = typeof provider === "function" ? provider(real) : provider;
  try {
    return await work();
  } finally {
    payouts.provider = real;
  }
}

export function withProviderDown<T>(h: Harness, work: () => Promise<T>): Promise<T> {
  return withPayoutProvider(h, unreachableProvider(), work);
}

/** Runs `work` with the service expecting another callback secret: every provider callback is refused. */
export async function withCallbacksRefused<T>(h: Harness, work: () => Promise<T>): Promise<T> {
  const config = h.deps.config as { BREB_CALLBACK_SECRET?: string };
  const real = config.BREB_CALLBACK_SECRET;
  config.BREB_CALLBACK_SECRET = "whsec_bm90LXRoZS1wcm92aWRlcnMtc2VjcmV0LTAwMDA=";
  try {
    return await work();
  } finally {
    config.BREB_CALLBACK_SECRET = real;
  }
}

/** The webhook event types the organization was sent about one payout, oldest first. */
export async function payoutEventTypes(h: Harness, tenant: Tenant, payoutId: string): Promise<string[]> {
  const response = await h.app.request("/api/integrations/webhooks/events?limit=500", {
    headers: { authorization: `Bearer ${tenant.apiKey}` },
  });
  const { events } = await bodyOf(response, listEventsRoute, 200);
  return events
    .filter((event) => "payoutId" in event.data && event.data.payoutId === payoutId)
    .map((event) => event.type);
}

/**
 * A refund as the local provider sends one: `amount` of the token from its deposit account to `to`,
 * signed now and broadcast only when `broadcast` is called, so a test may name its hash before the
 * chain knows it. Nothing else may send from the deposit account in between (its nonce is taken now).
 */
export async function signedRefund(
  h: Harness,
  to: Hex,
  amount: bigint,
  token: "usdc" | "copm" = "usdc",
): Promise<{ hash: Hex; broadcast(): Promise<void> }> {
  const chain = payoutChain(h);
  const { reader, wallet } = clientsOn(chain, privateKeyToAccount(LOCAL_BREB_DEPOSIT_KEY));
  const request = await wallet.prepareTransactionRequest({
    to: chain.contracts[token] as Hex,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] }),
  });
  const raw = await wallet.signTransaction(request);
  const hash = keccak256(raw);
  return {
    hash,
    broadcast: async () => {
      await wallet.sendRawTransaction({ serializedTransaction: raw });
      expect((await reader.waitForTransactionReceipt({ hash })).status).toBe("success");
    },
  };
}

/** A refund from the provider's deposit account, mined: its hash. */
export async function sentRefund(h: Harness, to: Hex, amount: bigint): Promise<Hex> {
  const refund = await signedRefund(h, to, amount);
  await refund.broadcast();
  return refund.hash;
}
