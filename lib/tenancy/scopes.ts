/**
 * What a restricted key may do (docs/tenancy.md, "Restricted keys"): one scope per area and kind of
 * access. A key without scopes may do everything. Adding a scope fails to compile until every
 * operation that needs it says so in OPERATION_SCOPES and the docs describe it.
 */
export const API_SCOPES = {
  "settlements:read": "Read settlement quotes' chains, orders and their timelines.",
  "settlements:write": "Quote, order and report burns of settlements.",
  "payouts:read": "Read BRE-B payouts, the user's KYC state and payout quotes.",
  "payouts:write": "Sign users in with their wallet, send and verify their OTP, create and confirm payouts.",
  "swaps:read": "Read prepared swaps.",
  "swaps:write": "Prepare and confirm swaps.",
  "webhooks:read": "Read the webhook endpoint, events and deliveries.",
  "webhooks:write": "Set, delete and test the webhook endpoint, rotate its secret, replay events.",
  "statements:read": "Read statements and look transactions up by hash.",
  "sandbox:write":
    "Test mode only: read the sandbox network, fund addresses from its faucet and list addresses on its sanctions oracle.",
  "audit:read":
    "Read the audit log of changes to keys, members, webhook endpoints and settings, and the request logs.",
} as const satisfies Record<string, string>;

export type ApiScope = keyof typeof API_SCOPES;
export const API_SCOPE_NAMES = Object.keys(API_SCOPES) as [ApiScope, ...ApiScope[]];

/**
 * The scope each partner operation needs, by operationId: the one table the guard, the OpenAPI
 * document (each operation's `security`) and the docs read. A partner operation missing here is
 * refused to every restricted key (tests/tenancy/scopes.test.ts keeps the table whole).
 */
export const OPERATION_SCOPES: Record<string, ApiScope> = {
  getSandboxNetwork: "sandbox:write",
  sandboxFaucet: "sandbox:write",
  sandboxSanction: "sandbox:write",
  createSettlementQuote: "settlements:write",
  createSettlementOrder: "settlements:write",
  submitSettlementBurn: "settlements:write",
  listSettlementOrders: "settlements:read",
  getSettlementOrder: "settlements:read",
  listSettlementSourceChains: "settlements:read",
  listWebhookEvents: "webhooks:read",
  getWebhookEndpoint: "webhooks:read",
  listWebhookDeliveries: "webhooks:read",
  putWebhookEndpoint: "webhooks:write",
  deleteWebhookEndpoint: "webhooks:write",
  rotateWebhookSecret: "webhooks:write",
  sendWebhookTestEvent: "webhooks:write",
  replayWebhookEvent: "webhooks:write",
  createBrebWalletChallenge: "payouts:write",
  openBrebWalletSession: "payouts:write",
  sendBrebOtp: "payouts:write",
  verifyBrebOtp: "payouts:write",
  getBrebKyc: "payouts:read",
  quoteBrebPayout: "payouts:read",
  createBrebPayout: "payouts:write",
  confirmBrebPayout: "payouts:write",
  listBrebPayouts: "payouts:read",
  getBrebPayout: "payouts:read",
  prepareSwap: "swaps:write",
  confirmSwap: "swaps:write",
  listSwaps: "swaps:read",
  getSwap: "swaps:read",
  getTransaction: "statements:read",
  getStatement: "statements:read",
  listAuditLog: "audit:read",
  listRequestLogs: "audit:read",
};

/** Whether a key's scopes (null: every scope) allow what `needed` names. */
export function allows(scopes: readonly ApiScope[] | null, needed: ApiScope | undefined): boolean {
  if (scopes === null) return true;
  return needed !== undefined && scopes.includes(needed);
}
