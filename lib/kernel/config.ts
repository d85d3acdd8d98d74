import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { isAes256Key } from "./aes-key";
import { sandboxNetworkSchema } from "./chain/profiles";

/**
 * SETTLEMENT_LEG_DEADLINES: seconds an order may stay in each status before it is STUCK, over the
 * settlement area's defaults (lib/settlement/legs/deadlines.ts).
 */
const legDeadlinesSchema = z
  .object({
    BURNED: z.number().int().positive(),
    ATTESTED: z.number().int().positive(),
    MINTED: z.number().int().positive(),
    ROUTING: z.number().int().positive(),
    ROUTED: z.number().int().positive(),
    RETURNING: z.number().int().positive(),
  })
  .partial()
  .strict();

/**
 * Every variable the service reads, parsed in one place. Workers hand us `env`, Node hands us
 * `process.env`; both are plain string maps by the time they get here.
 */
const optionalUrl = z.string().url().optional();

/**
 * A secp256k1 private key: 32 bytes of hex that are a valid scalar (not zero, below the curve's
 * order). A key that only looks right would otherwise throw where it is first used.
 */
const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte hex private key")
  .refine((key) => accountOf(key) !== undefined, "is not a valid secp256k1 private key");

function accountOf(key: string) {
  try {
    return privateKeyToAccount(key as `0x${string}`);
  } catch {
    return undefined;
  }
}

const variables = z.object({
  /** Live unless told: mock mode is asked for by name (`npm run dev`, the tests), never fallen into. */
  MODE: z.enum(["mock", "live"]).default("live"),
  CHAIN_PROFILE: z.enum(["local", "testnet", "mainnet"]).default("local"),
  PUBLIC_URL: z.string().url().default("http://127.0.0.1:8787"),
  DATABASE_URL: z.string().url().optional(),
  /** host:port of the local Neon relay (dev/neon-relay), on loopback only: the local stack and the rehearsal. */
  NEON_LOCAL_RELAY: z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, "expected host:port")
    .optional(),
  ADMIN_TOKEN: z.string().min(1).optional(),
  QSTASH_URL: z.string().url().default("https://qstash.upstash.io"),
  QSTASH_TOKEN: z.string().min(1).optional(),
  QSTASH_CURRENT_SIGNING_KEY: z.string().min(1).optional(),
  QSTASH_NEXT_SIGNING_KEY: z.string().min(1).optional(),
  SOURCE_RPC_URL: optionalUrl,
  INTERMEDIATE_RPC_URL: optionalUrl,
  DESTINATION_RPC_URL: optionalUrl,
  /** The local chains' descriptor (JSON), written by `npm run dev` and the tests; local profile only. */
  SANDBOX_NETWORK: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const parsed = sandboxNetworkSchema.safeParse(safeJson(raw));
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: "custom", message: "must be the JSON sandbox network descriptor" });
      return z.NEVER;
    }),
  /** Signs the sandbox faucet's mints on the local chains; mock mode only. */
  SANDBOX_OPERATOR_KEY: privateKey.optional(),
  /** Receives the forwarded USDC mint and carries the money on (the settlement account). */
  SETTLEMENT_ACCOUNT_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address")
    .optional(),
  /** Signs the settlement account's transactions (route, exchange, delivery). */
  SETTLEMENT_ACCOUNT_KEY: privateKey.optional(),
  /** Signs the burn plans handed to integrators (EIP-712). */
  BURN_PLAN_SIGNER_KEY: privateKey.optional(),
  /** The operator's switch: refuse new quotes and orders for every organization. */
  INTAKE_PAUSED: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  IRIS_URL: z.string().url().optional(),
  LIFI_URL: z.string().url().default("https://li.quest"),
  LIFI_API_KEY: z.string().min(1).optional(),
  LIFI_INTEGRATOR: z.string().min(1).optional(),
  /** How long a pricing provider may take before the quote answers PROVIDER_UNAVAILABLE. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5_000),
  /**
   * The service's budget of calls to Circle's Iris per second, shared by every order's polls (Circle
   * blocks a caller for five minutes past 35 a second).
   */
  IRIS_CALLS_PER_SECOND: z.coerce.number().int().min(1).max(35).default(10),
  /** The service's budget of status calls to the aggregator per minute, shared by every order's polls. */
  LIFI_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(6000).default(60),
  /** How often a settlement order still in flight is looked at again. */
  SETTLEMENT_POLL_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  /**
   * A standing allowance the settlement account tops up covers this many payments of the size that
   * found it short: fewer approvals than one per order, never an unlimited allowance.
   */
  SETTLEMENT_ALLOWANCE_PAYMENTS: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * How many of the settlement account's transactions may be unmined at once on a chain (geth keeps
   * 16 executable transactions per account in its pool before it may evict them).
   */
  SETTLEMENT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(16),
  /** How long a settlement-account transaction may sit unmined before it is replaced with higher fees. */
  SETTLEMENT_REPLACE_AFTER_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  /** Per-leg deadlines in seconds (JSON), over the defaults in lib/settlement/legs/deadlines.ts. */
  SETTLEMENT_LEG_DEADLINES: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return {};
      const parsed = legDeadlinesSchema.safeParse(safeJson(raw));
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: "custom", message: 'must be JSON like {"ROUTING": 3600}' });
      return z.NEVER;
    }),
  /** Encrypts webhook signing secrets at rest (AES-256-GCM): 32 random bytes in base64. */
  WEBHOOK_SECRETS_KEY: z.string().refine(isAes256Key, "must be 32 bytes in base64").optional(),
  /** How long a webhook receiver may take to answer before the attempt counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(15_000),
  /** Keys the HMAC under which one-time codes are stored (the code itself never is). */
  OTP_HASH_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Signs the partner dashboard's session cookies and derives its CSRF tokens. Mock mode falls back
   * to a public development key; live mode requires its own.
   */
  DASHBOARD_SESSION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** The one code mock mode sends and returns as `debugCode`. */
  MOCK_OTP_CODE: z
    .string()
    .regex(/^\d{6}$/, "must be six digits")
    .default("123456"),
  /** Mock mode approves KYC as soon as the code verifies; false sends the user to the KYC provider as live mode does. */
  MOCK_KYC_AUTO_APPROVE: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  /** Resend's API key: codes are also emailed when set. */
  RESEND_API_KEY: z.string().min(1).optional(),
  RESEND_API_URL: z.string().url().default("https://api.resend.com"),
  /** The sender of code emails, e.g. `COPm <codes@example.com>` on a domain verified at Resend. */
  EMAIL_FROM: z.string().min(3).optional(),
  /** The KYC provider's HTTP API (docs/kyc-provider-contract.md), its key, and the secret its callbacks are signed with. */
  KYC_PROVIDER_URL: optionalUrl,
  KYC_PROVIDER_API_KEY: z.string().min(1).optional(),
  KYC_CALLBACK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must be a Standard Webhooks secret (whsec_ and base64)")
    .optional(),
  /** The integration the key-less miniapp routes (/api/breb/*) act as; mock mode only. */
  MINIAPP_INTEGRATION_ID: z
    .string()
    .regex(/^int_[0-9A-HJKMNP-TV-Z]{26}$/, "must be an integration id (int_…)")
    .optional(),
  /** The BRE-B payout provider's API (docs/breb-provider.openapi.yaml), its key, and its callbacks' secret. */
  BREB_PROVIDER_URL: optionalUrl,
  BREB_PROVIDER_API_KEY: z.string().min(1).optional(),
  BREB_CALLBACK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must be a Standard Webhooks secret (whsec_ and base64)")
    .optional(),
  /** Where each payout's service fee is paid, on the destination chain. */
  BREB_FEE_WALLET: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address")
    .optional(),
  /** The most one payout may deliver, in whole pesos (a reported per-transaction cap). */
  BREB_MAX_COP: z.coerce.number().int().min(4_000).max(1_000_000_000).default(11_500_000),
  BREB_SERVICE_FEE_BPS: z.coerce.number().int().min(0).max(1_000).default(100),
  /** How long the provider's rate is reused by later quotes. */
  BREB_RATE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** How long a payout quote may be used. */
  BREB_QUOTE_SECONDS: z.coerce.number().int().min(10).max(3_600).default(120),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Requests per minute; in the worker the rate-limiting bindings in wrangler.toml hold these. */
  RATE_LIMIT_PER_KEY_PER_MINUTE: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(120),
});

/** What each variable is for, whether it is a secret, and where it applies: the configuration page is made from this. */
export const CONFIG_VARIABLES: Record<
  keyof typeof variables.shape,
  { about: string; secret?: true; only?: "mock mode" | "the local profile" }
> = {
  MODE: {
    about:
      "`live` (the default everywhere: a deployment never falls into mock mode); `mock` (set by `npm run dev` and the tests) enables the spec's mock behaviours, the sandbox helpers and test keys, and runs only with `CHAIN_PROFILE=local`",
  },
  CHAIN_PROFILE: {
    about: "`local`, `testnet` or `mainnet`: which chains and contract addresses the service uses",
  },
  PUBLIC_URL: { about: "the worker's public base URL: job deliveries are addressed and verified against it" },
  DATABASE_URL: { about: "the Neon (or any Postgres) connection string", secret: true },
  NEON_LOCAL_RELAY: {
    about:
      "`host:port` of the local Neon relay (dev/neon-relay), where the local stack and the rehearsal keep Neon; refused on any host but loopback",
  },
  ADMIN_TOKEN: { about: "bearer token of the admin API, at least 32 characters in live mode", secret: true },
  QSTASH_URL: { about: "QStash's base URL" },
  QSTASH_TOKEN: { about: "QStash's publishing token", secret: true },
  QSTASH_CURRENT_SIGNING_KEY: { about: "verifies job deliveries (Upstash-Signature)", secret: true },
  QSTASH_NEXT_SIGNING_KEY: { about: "verifies job deliveries during a key rotation", secret: true },
  SOURCE_RPC_URL: { about: "JSON-RPC endpoint of the source chain (a secret when it carries a key)" },
  INTERMEDIATE_RPC_URL: {
    about: "JSON-RPC endpoint of the intermediate chain (a secret when it carries a key)",
  },
  DESTINATION_RPC_URL: {
    about: "JSON-RPC endpoint of the destination chain (a secret when it carries a key)",
  },
  SANDBOX_NETWORK: {
    about: "the local chains' descriptor (JSON), written by `npm run dev` and the tests",
    only: "the local profile",
  },
  SANDBOX_OPERATOR_KEY: {
    about: "signs the sandbox faucet's mints on the local chains",
    secret: true,
    only: "mock mode",
  },
  SETTLEMENT_ACCOUNT_ADDRESS: {
    about: "receives the forwarded USDC mint and carries the money on (the settlement account)",
  },
  SETTLEMENT_ACCOUNT_KEY: {
    about: "signs the settlement account's transactions (route, exchange, delivery)",
    secret: true,
  },
  BURN_PLAN_SIGNER_KEY: {
    about: "signs the burn and payout plans handed to partners (EIP-712)",
    secret: true,
  },
  INTAKE_PAUSED: {
    about: "the operator's switch: `true` refuses new quotes and orders for every organization",
  },
  IRIS_URL: {
    about:
      "Circle's Iris API (attestations and fees); the profile's by default (the local profile has none: the local stack's Circle service)",
  },
  LIFI_URL: { about: "the aggregator's API (LI.FI; the local stack's aggregator service on local chains)" },
  LIFI_API_KEY: { about: "the aggregator's API key", secret: true },
  LIFI_INTEGRATOR: { about: "the integrator name the aggregator's routes carry" },
  PROVIDER_TIMEOUT_MS: {
    about: "how long a pricing provider may take before a quote answers PROVIDER_UNAVAILABLE (100–30000)",
  },
  IRIS_CALLS_PER_SECOND: {
    about:
      "the service's budget of calls to Circle's Iris per second, shared by every order's polls (1–35; Circle blocks a caller for five minutes past 35)",
  },
  LIFI_CALLS_PER_MINUTE: {
    about:
      "the service's budget of status calls to the aggregator per minute, shared by every order's polls (1–6000)",
  },
  SETTLEMENT_POLL_SECONDS: { about: "how often an order still in flight is looked at again (1–300)" },
  SETTLEMENT_ALLOWANCE_PAYMENTS: {
    about: "how many payments of the size that found it short a standing allowance top-up covers (1–1000)",
  },
  SETTLEMENT_MAX_IN_FLIGHT: {
    about:
      "how many of the settlement account's transactions may be unmined at once on a chain (1–64; 1 sends them one at a time)",
  },
  SETTLEMENT_REPLACE_AFTER_SECONDS: {
    about:
      "how long a settlement-account transaction may sit unmined before it is replaced with higher fees at its nonce (5–3600)",
  },
  SETTLEMENT_LEG_DEADLINES: {
    about: 'per-leg deadlines in seconds, JSON over the defaults (`{"ROUTING": 3600}`)',
  },
  WEBHOOK_SECRETS_KEY: {
    about:
      "32 bytes in base64: the AES-256-GCM key webhook signing secrets are stored under; mock mode without it answers webhook operations 503",
    secret: true,
  },
  WEBHOOK_TIMEOUT_MS: { about: "how long one webhook attempt waits for the receiver's answer (100–30000)" },
  OTP_HASH_KEY: {
    about: "at least 32 characters: the HMAC key one-time codes are stored under",
    secret: true,
  },
  DASHBOARD_SESSION_KEY: {
    about:
      "at least 32 characters: signs the dashboard's session cookies and derives its CSRF tokens (mock mode falls back to a public development key)",
    secret: true,
  },
  MOCK_OTP_CODE: { about: "the one code mock mode sends and answers as `debugCode`", only: "mock mode" },
  MOCK_KYC_AUTO_APPROVE: {
    about: "`false` sends mock users through the KYC provider as live mode does",
    only: "mock mode",
  },
  RESEND_API_KEY: { about: "Resend's API key: codes are emailed when it is set", secret: true },
  RESEND_API_URL: { about: "Resend's API" },
  EMAIL_FROM: { about: "the sender of code emails, on a domain verified at Resend" },
  KYC_PROVIDER_URL: { about: "the KYC provider's API (docs/kyc-provider-contract.md)" },
  KYC_PROVIDER_API_KEY: { about: "the KYC provider's key", secret: true },
  KYC_CALLBACK_SECRET: {
    about: "the `whsec_…` secret the KYC provider's callbacks are signed with",
    secret: true,
  },
  MINIAPP_INTEGRATION_ID: {
    about: "the integration the key-less `/api/breb/*` routes act as",
    only: "mock mode",
  },
  BREB_PROVIDER_URL: { about: "the BRE-B payout provider's API (docs/breb-provider.openapi.yaml)" },
  BREB_PROVIDER_API_KEY: { about: "the BRE-B payout provider's key", secret: true },
  BREB_CALLBACK_SECRET: {
    about: "the `whsec_…` secret the payout provider's callbacks are signed with",
    secret: true,
  },
  BREB_FEE_WALLET: { about: "where each payout's service fee is paid, on the destination chain" },
  BREB_MAX_COP: { about: "the most one payout may deliver, in whole pesos" },
  BREB_SERVICE_FEE_BPS: { about: "the service's payout fee in basis points (0–1000)" },
  BREB_RATE_CACHE_SECONDS: { about: "how long the provider's rate is reused by later quotes (0–3600)" },
  BREB_QUOTE_SECONDS: { about: "how long a payout quote may be used (10–3600)" },
  LOG_LEVEL: { about: "`debug`, `info`, `warn` or `error`" },
  RATE_LIMIT_PER_KEY_PER_MINUTE: {
    about: "requests a minute per API key in-process (the worker's binding is in wrangler.toml)",
  },
  RATE_LIMIT_PER_IP_PER_MINUTE: {
    about: "requests a minute per client IP in-process (the worker's binding is in wrangler.toml)",
  },
};

/** What live mode refuses to start without. */
export const LIVE_REQUIRED = [
  "DATABASE_URL",
  "QSTASH_TOKEN",
  "QSTASH_CURRENT_SIGNING_KEY",
  "QSTASH_NEXT_SIGNING_KEY",
  "SETTLEMENT_ACCOUNT_ADDRESS",
  "BURN_PLAN_SIGNER_KEY",
  "WEBHOOK_SECRETS_KEY",
  "OTP_HASH_KEY",
  "DASHBOARD_SESSION_KEY",
  "RESEND_API_KEY",
  "EMAIL_FROM",
  "KYC_PROVIDER_URL",
  "KYC_PROVIDER_API_KEY",
  "KYC_CALLBACK_SECRET",
  "BREB_PROVIDER_URL",
  "BREB_PROVIDER_API_KEY",
  "BREB_CALLBACK_SECRET",
  "BREB_FEE_WALLET",
  "ADMIN_TOKEN",
] as const;

/** Each variable's default, as the schema gives it when the variable is unset (undefined: none). */
export function defaultOf(name: keyof typeof variables.shape): unknown {
  const parsed = variables.shape[name].safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

const configSchema = variables.superRefine((env, ctx) => {
  if (env.MODE === "mock" && env.CHAIN_PROFILE !== "local") {
    ctx.addIssue({
      code: "custom",
      path: ["MODE"],
      message: "mock mode runs only on the local sandbox chains (CHAIN_PROFILE=local)",
    });
  }
  if (
    env.SETTLEMENT_ACCOUNT_KEY &&
    env.SETTLEMENT_ACCOUNT_ADDRESS &&
    accountOf(env.SETTLEMENT_ACCOUNT_KEY)?.address.toLowerCase() !==
      env.SETTLEMENT_ACCOUNT_ADDRESS.toLowerCase()
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["SETTLEMENT_ACCOUNT_ADDRESS"],
      message: "is not the address of SETTLEMENT_ACCOUNT_KEY",
    });
  }
  if (env.MODE === "live") {
    for (const name of LIVE_REQUIRED) {
      if (name === "ADMIN_TOKEN") continue; // its own rule below: present and long enough
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "required in live mode" });
    }
    if (!env.ADMIN_TOKEN || env.ADMIN_TOKEN.length < 32) {
      ctx.addIssue({
        code: "custom",
        path: ["ADMIN_TOKEN"],
        message: "live mode needs an admin token of at least 32 characters",
      });
    }
  }
  // The relay speaks plain ws:// and HTTP: never anywhere but this machine, whatever the mode (the
  // rehearsal runs live mode against it, as the local stand-in of Neon).
  const relayHost = env.NEON_LOCAL_RELAY?.replace(/:\d+$/, "");
  if (relayHost !== undefined && !["127.0.0.1", "localhost", "::1", "[::1]"].includes(relayHost)) {
    ctx.addIssue({
      code: "custom",
      path: ["NEON_LOCAL_RELAY"],
      message: "the local relay is reached on loopback only",
    });
  }
});

export type Config = z.infer<typeof configSchema>;

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] };

/** A problem names the variable and what is wrong with it, never the value it had. */
export interface ConfigProblem {
  variable: string;
  problem: string;
}

export function parseConfig(env: Record<string, unknown>): ConfigResult {
  const known = Object.fromEntries(
    Object.keys(variables.shape).map((key) => [key, blankToUndefined(env[key])]),
  );
  const parsed = configSchema.safeParse(known);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? "environment"),
      problem: issue.code === "custom" ? issue.message : describeIssue(issue),
    })),
  };
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function blankToUndefined(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}

/** zod's own messages may echo the received value; these never do. */
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    case "invalid_type":
      return `must be a ${issue.expected}`;
    case "too_small":
      return `is too short (minimum ${String(issue.minimum)})`;
    default:
      return "is invalid";
  }
}
