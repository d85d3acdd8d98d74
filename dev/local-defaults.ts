import { keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** The local admin token of `npm run dev`, documented in docs/development.md; ADMIN_TOKEN overrides it. */
export const LOCAL_ADMIN_TOKEN = "local-admin-token-for-development-only-0000";

/**
 * Local-only keys: Hardhat's public default accounts #1 and #2, known to everyone, so they guard
 * nothing. The settlement account receives forwarded mints on the local chains; the burn plan
 * signer signs the plans local orders carry.
 */
export const LOCAL_SETTLEMENT_ACCOUNT_KEY =
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
export const LOCAL_BURN_PLAN_SIGNER_KEY =
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";

/**
 * More local settlement accounts for a pool: keys derived from a public label (keccak256 of
 * "copm-local-settlement-pool-<n>"), known to everyone, so they guard nothing. Funded on the local
 * chains and used only when SETTLEMENT_ACCOUNT_KEYS names them: the pool's tests and the bench.
 */
export const LOCAL_SETTLEMENT_POOL_KEYS: readonly `0x${string}`[] = Array.from({ length: 31 }, (_, n) =>
  keccak256(toHex(`copm-local-settlement-pool-${n + 1}`)),
);

/** A pool of `size` local settlement accounts: the first account and size − 1 of the pool keys. */
export function localSettlementPoolVars(size: number): Record<string, string> {
  if (size < 1 || size > LOCAL_SETTLEMENT_POOL_KEYS.length + 1) {
    throw new RangeError(
      `a local pool has 1 to ${LOCAL_SETTLEMENT_POOL_KEYS.length + 1} accounts, not ${size}`,
    );
  }
  return { SETTLEMENT_ACCOUNT_KEYS: LOCAL_SETTLEMENT_POOL_KEYS.slice(0, size - 1).join(",") };
}

/**
 * Encrypts webhook signing secrets in the local database: a fixed local key so `.data/` stays
 * readable across restarts. Live mode requires its own WEBHOOK_SECRETS_KEY.
 */
export const LOCAL_WEBHOOK_SECRETS_KEY = "bG9jYWwtd2ViaG9vay1zZWNyZXRzLWtleS0wMDAwMDA=";

/** Seals dashboard members' TOTP secrets in the local database; live mode requires its own. */
export const LOCAL_TWO_FACTOR_SECRETS_KEY = "bG9jYWwtdHdvLWZhY3Rvci1zZWNyZXRzLWtleS0wMDA=";

/** The worker variables that configure settlement on the local chains. */
export function localSettlementVars(): Record<string, string> {
  return {
    SETTLEMENT_ACCOUNT_ADDRESS: privateKeyToAccount(LOCAL_SETTLEMENT_ACCOUNT_KEY).address,
    SETTLEMENT_ACCOUNT_KEY: LOCAL_SETTLEMENT_ACCOUNT_KEY,
    BURN_PLAN_SIGNER_KEY: LOCAL_BURN_PLAN_SIGNER_KEY,
    // Local chains start empty: every mint to the settlement account is read.
    SETTLEMENT_MINT_SCAN_FROM_BLOCK: "0",
  };
}

/**
 * Local pace: the local Circle and aggregator take 2 s each (LOCAL_VENDOR_PACE), orders are looked at
 * every second, the slow test amounts (.72, .73) hold Circle up for 75 s, past a 60 s BURNED
 * deadline, so `npm run demo:failures` shows an order STUCK and healed within two minutes; `.77`
 * keeps Mento below the floor for those 75 s, past a 45 s ROUTED deadline (the order's retry
 * window), so it is returned. The local chains stamp blocks with the wall clock, several in one
 * second (dev/stack.ts), so a plain order is DELIVERED about 5 s after its burn.
 */
export const LOCAL_VENDOR_PACE = {
  circle: { attestationDelayMs: 2_000, slowLegMs: 75_000 },
  aggregator: { relayDelayMs: 2_000, slowLegMs: 75_000 },
} as const;

export const LOCAL_PACE_VARS: Record<string, string> = {
  SETTLEMENT_POLL_SECONDS: "1",
  SETTLEMENT_LEG_DEADLINES: JSON.stringify({
    BURNED: 60,
    ATTESTED: 60,
    ROUTING: 120,
    ROUTED: 45,
    RETURNING: 120,
  }),
};

/** Signs the sandbox KYC provider's callbacks; local only. Live mode requires its own KYC_CALLBACK_SECRET. */
export const LOCAL_KYC_CALLBACK_SECRET = "whsec_bG9jYWwta3ljLWNhbGxiYWNrLXNlY3JldC0wMDAw";

/** Signs the local BRE-B provider's callbacks; local only. Live mode requires its own BREB_CALLBACK_SECRET. */
export const LOCAL_BREB_CALLBACK_SECRET = "whsec_bG9jYWwtYnJlYi1jYWxsYmFjay1zZWNyZXQtMDAwMA==";
/**
 * The local fee wallet's key: Hardhat's public default account #8, used nowhere else in dev/ (public,
 * so it guards nothing: local chains only). The service signs with it to return a refunded payout's
 * fee (docs/payouts.md, Refunds).
 */
export const LOCAL_BREB_FEE_WALLET_KEY = "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97";
/** Where local payouts' service fees go: 0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f. */
export const LOCAL_BREB_FEE_WALLET = privateKeyToAccount(LOCAL_BREB_FEE_WALLET_KEY).address;

/** The plan signer's address, as the service publishes it to integrators (locally: this constant). */
export const LOCAL_PLAN_SIGNER = privateKeyToAccount(LOCAL_BURN_PLAN_SIGNER_KEY).address;
