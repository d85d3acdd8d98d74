import type { z } from "zod";
import { accountOf } from "./formats";
import { LIVE_REQUIRED, variables } from "./variables";

export { defaultOf, factsOf, LIVE_REQUIRED, VARIABLE_NAMES } from "./variables";

/**
 * The service's configuration, parsed in one place from the variables in ./variables.ts. Workers
 * hand us `env`, Node hands us `process.env`; both are plain string maps by the time they get here.
 */
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
  const feeWallet = env.BREB_FEE_WALLET_KEY ? accountOf(env.BREB_FEE_WALLET_KEY)?.address : undefined;
  if (feeWallet && env.BREB_FEE_WALLET && feeWallet.toLowerCase() !== env.BREB_FEE_WALLET.toLowerCase()) {
    ctx.addIssue({
      code: "custom",
      path: ["BREB_FEE_WALLET"],
      message: "is not the address of BREB_FEE_WALLET_KEY",
    });
  }
  // Two signers sharing one account's nonces would take each other's: the fee wallet signs alone,
  // apart from every account of the settlement pool.
  const settlementAccounts = [
    env.SETTLEMENT_ACCOUNT_ADDRESS ??
      (env.SETTLEMENT_ACCOUNT_KEY ? accountOf(env.SETTLEMENT_ACCOUNT_KEY)?.address : undefined),
    ...(env.SETTLEMENT_ACCOUNT_KEYS ?? []).map((key) => accountOf(key)?.address),
  ].map((address) => address?.toLowerCase());
  if (feeWallet && settlementAccounts.includes(feeWallet.toLowerCase())) {
    ctx.addIssue({
      code: "custom",
      path: ["BREB_FEE_WALLET_KEY"],
      message: "signs for a settlement account; the fee wallet must be an account of its own",
    });
  }
  if (env.MODE === "live") {
    // The others of LIVE_REQUIRED are checked on what was set (parseConfig): a default is not a setting.
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
  // Live unless told (MODE's default). ADMIN_TOKEN has its own rule in the schema: present and long enough.
  const unsetInLive =
    (known.MODE ?? "live") === "live"
      ? LIVE_REQUIRED.filter((name) => name !== "ADMIN_TOKEN" && known[name] === undefined).map(
          (variable) => ({ variable, problem: "required in live mode" }),
        )
      : [];
  if (parsed.success && unsetInLive.length === 0) return { ok: true, config: parsed.data };
  return {
    ok: false,
    problems: [
      ...unsetInLive,
      ...(parsed.success ? [] : parsed.error.issues).map((issue) => ({
        variable: String(issue.path[0] ?? "environment"),
        problem: issue.code === "custom" ? issue.message : describeIssue(issue),
      })),
    ],
  };
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
