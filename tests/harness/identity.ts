import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { localSettlementVars } from "../../dev/local-defaults";
import { route as getKyc } from "../../functions/identity/get-kyc";
import { route as walletChallenge } from "../../functions/identity/wallet-challenge";
import { route as walletSession } from "../../functions/identity/wallet-session";
import type { Harness } from "./app";
import { bodyOf } from "./bodies";
import type { Tenant } from "./tenants";

/** Hardhat's public accounts #1 and #2: users in the identity tests, whose wallets sign in. */
const USER_ACCOUNT = privateKeyToAccount(
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
);
const OTHER_USER_ACCOUNT = privateKeyToAccount(
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
);
export const USER = USER_ACCOUNT.address;
export const OTHER_USER = OTHER_USER_ACCOUNT.address;

/** What signs in for an address: an externally owned account, or a smart wallet's signer. */
export interface WalletSigner {
  address: string;
  signMessage(args: { message: string }): Promise<Hex>;
}

/** The wallets the helpers below can sign in with, by address. */
const wallets = new Map<string, WalletSigner>([
  [USER, USER_ACCOUNT],
  [OTHER_USER, OTHER_USER_ACCOUNT],
]);

/** Lets the helpers sign in as `wallet` (a user a test made). */
export function rememberWallet<Wallet extends WalletSigner>(wallet: Wallet): Wallet {
  wallets.set(wallet.address, wallet);
  return wallet;
}

type Caller = Tenant | "miniapp";

/** Asks for the challenge and answers it with `sign` (the wallet's signature over the message). */
export async function signInWallet(
  h: Harness,
  caller: Caller,
  userAddress: string,
  sign: (message: string) => Promise<Hex>,
): Promise<Response> {
  const challenge = await identityRequest(h, caller, "/kyc/wallet/challenge", { body: { userAddress } });
  if (challenge.status !== 201) return challenge;
  const { message } = await bodyOf(challenge, walletChallenge, 201);
  return identityRequest(h, caller, "/kyc/wallet/session", {
    body: { message, signature: await sign(message) },
  });
}

const sessions = new WeakMap<Harness, Map<string, { token: string; expiresAt: number }>>();

/** A live wallet session of `userAddress` for the caller, signed by the remembered wallet (reused while it lasts). */
export async function walletSessionOf(h: Harness, caller: Caller, userAddress: string): Promise<string> {
  const byCaller = sessions.get(h) ?? new Map<string, { token: string; expiresAt: number }>();
  sessions.set(h, byCaller);
  const key = `${caller === "miniapp" ? "miniapp" : caller.integrationId}:${userAddress}`;
  const known = byCaller.get(key);
  if (known && known.expiresAt - 60_000 > h.clock.now().getTime()) return known.token;
  const wallet = wallets.get(userAddress);
  if (!wallet) throw new Error(`no wallet is remembered for ${userAddress}: rememberWallet(account) first`);
  const opened = await signInWallet(h, caller, userAddress, (message) => wallet.signMessage({ message }));
  if (opened.status !== 200) throw new Error(`wallet sign-in: ${opened.status} ${await opened.text()}`);
  const session = await bodyOf(opened, walletSession, 200);
  byCaller.set(key, { token: session.walletSession, expiresAt: Date.parse(session.expiresAt) });
  return session.walletSession;
}

/** The Wallet-Session header: the one given, none with null, else a remembered wallet's own. */
async function walletHeader(
  h: Harness,
  caller: Caller,
  userAddress: string,
  walletSession: string | null | undefined,
): Promise<Record<string, string>> {
  if (walletSession === null) return {};
  if (walletSession !== undefined) return { "wallet-session": walletSession };
  return walletHeaderIfKnown(h, caller, userAddress);
}

/** What live mode needs besides the identity providers (which `identity: true` supplies). */
export function liveEnv(): Record<string, string> {
  return {
    MODE: "live",
    CHAIN_PROFILE: "testnet",
    DATABASE_URL: "postgres://unused@127.0.0.1/unused",
    QSTASH_TOKEN: "t",
    QSTASH_CURRENT_SIGNING_KEY: "c",
    QSTASH_NEXT_SIGNING_KEY: "n",
    OTP_HASH_KEY: "test-otp-hash-key-0123456789abcdef-0123",
    DASHBOARD_SESSION_KEY: "test-dashboard-session-key-0123456789abcdef",
    EMAIL_FROM: "COPm <codes@copm.test>",
    ...localSettlementVars(),
  };
}

/** Live mode's identity providers for suites that never call them (`identity: true` starts real ones). */
export const UNUSED_IDENTITY_PROVIDERS: Record<string, string> = {
  RESEND_API_KEY: "re_unused",
  KYC_PROVIDER_URL: "http://127.0.0.1:9",
  KYC_PROVIDER_API_KEY: "unused",
  KYC_CALLBACK_SECRET: "whsec_dW51c2VkLXVudXNlZC11bnVzZWQ=",
};

/** Live mode's payout provider for suites that never call it. */
export const UNUSED_PAYOUT_PROVIDER: Record<string, string> = {
  BREB_PROVIDER_URL: "http://127.0.0.1:9",
  BREB_PROVIDER_API_KEY: "unused",
  BREB_CALLBACK_SECRET: "whsec_dW51c2VkLXVudXNlZC11bnVzZWQ=",
  BREB_FEE_WALLET: "0x000000000000000000000000000000000000fEe5",
};

/** A BRE-B identity call, with the tenant's key or, with `miniapp`, on the key-less prefix. */
export function identityRequest(
  h: Harness,
  tenant: Tenant | "miniapp",
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const prefix = tenant === "miniapp" ? "/api/breb" : "/api/integrations/breb";
  return h.app.request(`${prefix}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(tenant === "miniapp" ? {} : { authorization: `Bearer ${tenant.apiKey}` }),
      "content-type": "application/json",
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** The Wallet-Session header of a remembered wallet's address; none for an address no test holds. */
export async function walletHeaderIfKnown(
  h: Harness,
  caller: Caller,
  userAddress: unknown,
): Promise<Record<string, string>> {
  if (typeof userAddress !== "string" || !wallets.has(userAddress)) return {};
  return { "wallet-session": await walletSessionOf(h, caller, userAddress) };
}

/** `walletSession`: a token to send, or null to send none (the helpers sign in by default). */
interface WalletOption {
  walletSession?: string | null;
}

export async function sendCode(
  h: Harness,
  tenant: Caller,
  email: string,
  userAddress: string = USER,
  options: WalletOption = {},
) {
  return identityRequest(h, tenant, "/kyc/otp/send", {
    body: { email, userAddress },
    headers: await walletHeader(h, tenant, userAddress, options.walletSession),
  });
}

export async function verifyCode(
  h: Harness,
  tenant: Caller,
  email: string,
  code: string,
  userAddress: string = USER,
  options: WalletOption = {},
) {
  return identityRequest(h, tenant, "/kyc/otp/verify", {
    body: { email, userAddress, code },
    headers: await walletHeader(h, tenant, userAddress, options.walletSession),
  });
}

/** GET …/kyc for `userAddress`, with its wallet session (or another one, or none). */
export async function kycRequest(
  h: Harness,
  tenant: Caller,
  userAddress: string = USER,
  options: WalletOption = {},
) {
  return identityRequest(h, tenant, `/kyc?userAddress=${userAddress}`, {
    headers: await walletHeader(h, tenant, userAddress, options.walletSession),
  });
}

export async function kycOf(h: Harness, tenant: Caller, userAddress: string = USER) {
  const response = await kycRequest(h, tenant, userAddress);
  if (response.status !== 200) throw new Error(`kyc read: ${response.status} ${await response.text()}`);
  return (await bodyOf(response, getKyc, 200)).kyc;
}

/** The code in the newest email the local mailbox holds for `email`. */
export function codeFromMailbox(h: Harness, email: string): string {
  const message = h.mailbox?.emails().find((stored) => stored.to.includes(email));
  const code = message?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code emailed to ${email}`);
  return code;
}
