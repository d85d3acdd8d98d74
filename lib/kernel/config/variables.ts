import { z } from "zod";
import { isAes256Key } from "../aes-key";
import { chainVariables } from "./chain-variables";
import { type Described, type VariableFacts, variable, variableFacts } from "./described";
import { legDeadlinesSchema, optionalUrl, privateKey, privateKeyList, safeJson } from "./formats";

export type { VariableFacts } from "./described";

/** Every variable the service reads, in the order docs/configuration.md lists them (see described.ts). */
export const variables = z.object({
  /** Live unless told: mock mode is asked for by name (`npm run dev`, the tests), never fallen into. */
  MODE: variable(z.enum(["mock", "live"]).default("live"), {
    about:
      "`live` (the default everywhere: a deployment never falls into mock mode); `mock` (set by `npm run dev` and the tests) enables the spec's mock behaviours, the sandbox helpers and test keys, and runs only with `CHAIN_PROFILE=local`",
  }),
  CHAIN_PROFILE: variable(z.enum(["local", "testnet", "mainnet"]).default("local"), {
    about: "`local`, `testnet` or `mainnet`: which chains and contract addresses the service uses",
  }),
  PUBLIC_URL: variable(z.string().url().default("http://127.0.0.1:8787"), {
    about:
      "the service's public base URL, the same on both workers: job deliveries are addressed and verified against it (the default, a loopback URL, is for local runs only)",
    requiredInLive: true,
  }),
  DATABASE_URL: variable(z.string().url().optional(), {
    about: "the Neon (or any Postgres) connection string",
    secret: true,
    requiredInLive: true,
  }),
  /** host:port of the local Neon relay (dev/neon-relay), on loopback only: the local stack and the rehearsal. */
  NEON_LOCAL_RELAY: variable(
    z
      .string()
      .regex(/^[\w.-]+:\d{1,5}$/, "expected host:port")
      .optional(),
    {
      about:
        "`host:port` of the local Neon relay (dev/neon-relay), where the local stack and the rehearsal keep Neon; refused on any host but loopback",
    },
  ),
  ADMIN_TOKEN: variable(z.string().min(1).optional(), {
    about: "bearer token of the admin API, at least 32 characters in live mode",
    secret: true,
    requiredInLive: true,
  }),
  QSTASH_URL: variable(z.string().url().default("https://qstash.upstash.io"), { about: "QStash's base URL" }),
  QSTASH_TOKEN: variable(z.string().min(1).optional(), {
    about: "QStash's publishing token",
    secret: true,
    requiredInLive: true,
  }),
  QSTASH_CURRENT_SIGNING_KEY: variable(z.string().min(1).optional(), {
    about: "verifies job deliveries (Upstash-Signature)",
    secret: true,
    requiredInLive: true,
  }),
  QSTASH_NEXT_SIGNING_KEY: variable(z.string().min(1).optional(), {
    about: "verifies job deliveries during a key rotation",
    secret: true,
    requiredInLive: true,
  }),
  ...chainVariables,
  /** Receives the forwarded USDC mint and carries the money on (the settlement account). */
  SETTLEMENT_ACCOUNT_ADDRESS: variable(
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address")
      .optional(),
    {
      about: "receives the forwarded USDC mint and carries the money on (the settlement account)",
      requiredInLive: true,
    },
  ),
  /** Signs the settlement account's transactions (route, exchange, delivery). */
  SETTLEMENT_ACCOUNT_KEY: variable(privateKey.optional(), {
    about: "signs the settlement account's transactions (route, exchange, delivery)",
    secret: true,
  }),
  /** More settlement accounts: with SETTLEMENT_ACCOUNT_KEY's, the pool new orders are spread across. */
  SETTLEMENT_ACCOUNT_KEYS: variable(privateKeyList.optional(), {
    about:
      "more settlement accounts' keys, comma-separated: with SETTLEMENT_ACCOUNT_KEY's account, the pool new orders are spread across, each with its own nonce queue on every chain (docs/settlement.md, \"Settlement accounts\")",
    secret: true,
  }),
  /** Signs the burn plans handed to integrators (EIP-712). */
  BURN_PLAN_SIGNER_KEY: variable(privateKey.optional(), {
    about: "signs the burn and payout plans handed to partners (EIP-712)",
    secret: true,
    requiredInLive: true,
  }),
  /** The operator's switch: refuse new quotes and orders for every organization. */
  INTAKE_PAUSED: variable(
    z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
    { about: "the operator's switch: `true` refuses new quotes and orders for every organization" },
  ),
  IRIS_URL: variable(z.string().url().optional(), {
    about:
      "Circle's Iris API (attestations and fees); the profile's by default (the local profile has none: the local stack's Circle service)",
  }),
  LIFI_URL: variable(z.string().url().default("https://li.quest"), {
    about: "the aggregator's API (LI.FI; the local stack's aggregator service on local chains)",
  }),
  LIFI_API_KEY: variable(z.string().min(1).optional(), { about: "the aggregator's API key", secret: true }),
  LIFI_INTEGRATOR: variable(z.string().min(1).optional(), {
    about: "the integrator name the aggregator's routes carry",
  }),
  /** How long a pricing provider may take before the quote answers PROVIDER_UNAVAILABLE. */
  PROVIDER_TIMEOUT_MS: variable(z.coerce.number().int().min(100).max(30_000).default(5_000), {
    about: "how long a pricing provider may take before a quote answers PROVIDER_UNAVAILABLE (100–30000)",
  }),
  /**
   * The service's budget of calls to Circle's Iris per second, shared by every order's polls (Circle
   * blocks a caller for five minutes past 35 a second).
   */
  IRIS_CALLS_PER_SECOND: variable(z.coerce.number().int().min(1).max(35).default(10), {
    about:
      "the service's budget of calls to Circle's Iris per second, shared by every order's polls (1–35; Circle blocks a caller for five minutes past 35)",
  }),
  /** The service's budget of status calls to the aggregator per minute, shared by every order's polls. */
  LIFI_CALLS_PER_MINUTE: variable(z.coerce.number().int().min(1).max(6000).default(60), {
    about:
      "the service's budget of status calls to the aggregator per minute, shared by every order's polls (1–6000); with LIFI_QUOTE_CALLS_PER_MINUTE, keep within the LI.FI key's limit (100 by default)",
  }),
  /** The price book's own budget of route quotes from the aggregator per minute, so polls never starve quotes. */
  LIFI_QUOTE_CALLS_PER_MINUTE: variable(z.coerce.number().int().min(1).max(6000).default(30), {
    about:
      "the price book's budget of route quotes from the aggregator per minute (1–6000), apart from the orders' polls so a burst of them never leaves partners' quotes without prices (docs/pricing.md)",
  }),
  /** How often a settlement order still in flight is looked at again. */
  SETTLEMENT_POLL_SECONDS: variable(z.coerce.number().int().min(1).max(300).default(5), {
    about: "how often an order still in flight is looked at again (1–300)",
  }),
  /**
   * A standing allowance the settlement account tops up covers this many payments of the size that
   * found it short: fewer approvals than one per order, never an unlimited allowance.
   */
  SETTLEMENT_ALLOWANCE_PAYMENTS: variable(z.coerce.number().int().min(1).max(1000).default(20), {
    about: "how many payments of the size that found it short a standing allowance top-up covers (1–1000)",
  }),
  /**
   * How many of the settlement account's transactions may be unmined at once on a chain (geth keeps
   * 16 executable transactions per account in its pool before it may evict them).
   */
  SETTLEMENT_MAX_IN_FLIGHT: variable(z.coerce.number().int().min(1).max(64).default(16), {
    about:
      "how many of the settlement account's transactions may be unmined at once on a chain (1–64; 1 sends them one at a time)",
  }),
  /**
   * Where the search for mints no order claims starts on the intermediate chain the first time it
   * runs (docs/settlement.md, "Unclaimed mints"); unset, at the chain's head then: nothing earlier is read.
   */
  SETTLEMENT_MINT_SCAN_FROM_BLOCK: variable(z.coerce.bigint().min(0n).optional(), {
    about:
      "the intermediate-chain block the search for unclaimed mints starts at on its first run (unset: the head then)",
  }),
  /** How long a settlement-account transaction may sit unmined before it is replaced with higher fees. */
  SETTLEMENT_REPLACE_AFTER_SECONDS: variable(z.coerce.number().int().min(5).max(3600).default(120), {
    about:
      "how long a settlement-account transaction may sit unmined before it is replaced with higher fees at its nonce (5–3600)",
  }),
  /** Per-leg deadlines in seconds (JSON), over the defaults in lib/settlement/legs/deadlines.ts. */
  SETTLEMENT_LEG_DEADLINES: variable(
    z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return {};
        const parsed = legDeadlinesSchema.safeParse(safeJson(raw));
        if (parsed.success) return parsed.data;
        ctx.addIssue({ code: "custom", message: 'must be JSON like {"ROUTING": 3600}' });
        return z.NEVER;
      }),
    { about: 'per-leg deadlines in seconds, JSON over the defaults (`{"ROUTING": 3600}`)' },
  ),
  /** Encrypts webhook signing secrets at rest (AES-256-GCM): 32 random bytes in base64. */
  WEBHOOK_SECRETS_KEY: variable(z.string().refine(isAes256Key, "must be 32 bytes in base64").optional(), {
    about:
      "32 bytes in base64: the AES-256-GCM key webhook signing secrets are stored under; mock mode without it answers webhook operations 503",
    secret: true,
    requiredInLive: true,
  }),
  /** How long a webhook receiver may take to answer before the attempt counts as failed. */
  WEBHOOK_TIMEOUT_MS: variable(z.coerce.number().int().min(100).max(30_000).default(15_000), {
    about: "how long one webhook attempt waits for the receiver's answer (100–30000)",
  }),
  /** Keys the HMAC under which one-time codes are stored (the code itself never is). */
  OTP_HASH_KEY: variable(z.string().min(32, "must be at least 32 characters").optional(), {
    about: "at least 32 characters: the HMAC key one-time codes are stored under",
    secret: true,
    requiredInLive: true,
  }),
  /**
   * Signs the partner dashboard's session cookies and derives its CSRF tokens; signs statement
   * cursors too. Mock mode falls back to a public development key; live mode requires its own.
   */
  DASHBOARD_SESSION_KEY: variable(z.string().min(32, "must be at least 32 characters").optional(), {
    about:
      "at least 32 characters: signs the dashboard's session cookies and derives its CSRF tokens, and signs statement cursors (mock mode falls back to a public development key)",
    secret: true,
    requiredInLive: true,
  }),
  /** Encrypts dashboard members' TOTP secrets at rest (AES-256-GCM): 32 random bytes in base64. */
  TWO_FACTOR_SECRETS_KEY: variable(z.string().refine(isAes256Key, "must be 32 bytes in base64").optional(), {
    about:
      "32 bytes in base64: the AES-256-GCM key dashboard members' two-factor (TOTP) secrets are stored under (mock mode falls back to a key derived from the dashboard's session key)",
    secret: true,
    requiredInLive: true,
  }),
  /** The one code mock mode sends and returns as `debugCode`. */
  MOCK_OTP_CODE: variable(
    z
      .string()
      .regex(/^\d{6}$/, "must be six digits")
      .default("123456"),
    { about: "the one code mock mode sends and answers as `debugCode`", only: "mock mode" },
  ),
  /** Mock mode approves KYC as soon as the code verifies; false sends the user to the KYC provider as live mode does. */
  MOCK_KYC_AUTO_APPROVE: variable(
    z
      .enum(["true", "false"])
      .default("true")
      .transform((value) => value === "true"),
    { about: "`false` sends mock users through the KYC provider as live mode does", only: "mock mode" },
  ),
  /** Resend's API key: codes are also emailed when set. */
  RESEND_API_KEY: variable(z.string().min(1).optional(), {
    about: "Resend's API key: codes are emailed when it is set",
    secret: true,
    requiredInLive: true,
  }),
  RESEND_API_URL: variable(z.string().url().default("https://api.resend.com"), { about: "Resend's API" }),
  /** The sender of code emails, e.g. `COPm <codes@example.com>` on a domain verified at Resend. */
  EMAIL_FROM: variable(z.string().min(3).optional(), {
    about: "the sender of code emails, on a domain verified at Resend",
    requiredInLive: true,
  }),
  /** The KYC provider's HTTP API (docs/kyc-provider-contract.md), its key, and the secret its callbacks are signed with. */
  KYC_PROVIDER_URL: variable(optionalUrl, {
    about: "the KYC provider's API (docs/kyc-provider-contract.md)",
    requiredInLive: true,
  }),
  KYC_PROVIDER_API_KEY: variable(z.string().min(1).optional(), {
    about: "the KYC provider's key",
    secret: true,
    requiredInLive: true,
  }),
  KYC_CALLBACK_SECRET: variable(
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must be a Standard Webhooks secret (whsec_ and base64)")
      .optional(),
    {
      about: "the `whsec_…` secret the KYC provider's callbacks are signed with",
      secret: true,
      requiredInLive: true,
    },
  ),
  /** The integration the key-less miniapp routes (/api/breb/*) act as; mock mode only. */
  MINIAPP_INTEGRATION_ID: variable(
    z
      .string()
      .regex(/^int_[0-9A-HJKMNP-TV-Z]{26}$/, "must be an integration id (int_…)")
      .optional(),
    { about: "the integration the key-less `/api/breb/*` routes act as", only: "mock mode" },
  ),
  /** The BRE-B payout provider's API (docs/breb-provider.openapi.yaml), its key, and its callbacks' secret. */
  BREB_PROVIDER_URL: variable(optionalUrl, {
    about: "the BRE-B payout provider's API (docs/breb-provider.openapi.yaml)",
    requiredInLive: true,
  }),
  BREB_PROVIDER_API_KEY: variable(z.string().min(1).optional(), {
    about: "the BRE-B payout provider's key",
    secret: true,
    requiredInLive: true,
  }),
  BREB_CALLBACK_SECRET: variable(
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must be a Standard Webhooks secret (whsec_ and base64)")
      .optional(),
    {
      about: "the `whsec_…` secret the payout provider's callbacks are signed with",
      secret: true,
      requiredInLive: true,
    },
  ),
  /** Where each payout's service fee is paid, on the destination chain. */
  BREB_FEE_WALLET: variable(
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address")
      .optional(),
    { about: "where each payout's service fee is paid, on the destination chain", requiredInLive: true },
  ),
  /**
   * The fee wallet's key: with it, the service returns a refunded payout's fee from the fee wallet
   * itself (docs/payouts.md, Refunds); without it, the fee is owed and listed for the operator.
   */
  BREB_FEE_WALLET_KEY: variable(privateKey.optional(), {
    about:
      "signs the fee wallet's returns of a refunded payout's service fee; without it they are left to the operator",
    secret: true,
  }),
  /**
   * How long a failed payout waits for a refund the payout chain shows, and a refunded one for its
   * fee's return, before the operator is told (docs/payouts.md, Refunds).
   */
  BREB_REFUND_DEADLINE_SECONDS: variable(z.coerce.number().int().min(60).max(604_800).default(3_600), {
    about:
      "how long a failed payout may wait for its refund proven on chain, and a refunded one for its fee's return, before the operator is told (60–604800)",
  }),
  /** The most one payout may deliver, in whole pesos (a reported per-transaction cap). */
  BREB_MAX_COP: variable(z.coerce.number().int().min(4_000).max(1_000_000_000).default(11_500_000), {
    about: "the most one payout may deliver, in whole pesos",
  }),
  BREB_SERVICE_FEE_BPS: variable(z.coerce.number().int().min(0).max(1_000).default(100), {
    about: "the service's payout fee in basis points (0–1000)",
  }),
  /** How long the provider's rate is reused by later quotes. */
  BREB_RATE_CACHE_SECONDS: variable(z.coerce.number().int().min(0).max(3_600).default(60), {
    about: "how long the provider's rate is reused by later quotes (0–3600)",
  }),
  /** How long a payout quote may be used. */
  BREB_QUOTE_SECONDS: variable(z.coerce.number().int().min(10).max(3_600).default(120), {
    about: "how long a payout quote may be used (10–3600)",
  }),
  LOG_LEVEL: variable(z.enum(["debug", "info", "warn", "error"]).default("info"), {
    about: "`debug`, `info`, `warn` or `error`",
  }),
  /** Requests per minute; in the worker the rate-limiting bindings in wrangler.toml hold these. */
  RATE_LIMIT_PER_KEY_PER_MINUTE: variable(z.coerce.number().int().positive().default(600), {
    about: "requests a minute per API key in-process (the worker's binding is in wrangler.toml)",
  }),
  RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: variable(z.coerce.number().int().positive().default(1200), {
    about:
      "requests a minute per organization over all its API keys in-process (the worker's binding is in wrangler.toml)",
  }),
  RATE_LIMIT_PER_IP_PER_MINUTE: variable(z.coerce.number().int().positive().default(120), {
    about: "requests a minute per client IP in-process (the worker's binding is in wrangler.toml)",
  }),
} satisfies Record<string, Described<z.ZodType>>);

export type VariableName = keyof typeof variables.shape;
export const VARIABLE_NAMES = Object.keys(variables.shape) as VariableName[];

export function factsOf(name: VariableName): VariableFacts {
  const facts = variableFacts.get(variables.shape[name]);
  if (!facts) throw new Error(`${name} has no facts`);
  return facts;
}

/** What live mode refuses to start without. */
export const LIVE_REQUIRED = VARIABLE_NAMES.filter((name) => factsOf(name).requiredInLive);

/** Each variable's default, as the schema gives it when the variable is unset (undefined: none). */
export function defaultOf(name: VariableName): unknown {
  const parsed = variables.shape[name].safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}
