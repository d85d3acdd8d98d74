/** The order lifecycle of spec 2.2 and docs/architecture.md, in order. */
export const ORDER_STATUSES = [
  "CREATED",
  "BURNED",
  "ATTESTED",
  "MINTED",
  "ROUTING",
  "ROUTED",
  "DELIVERED",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const FUNDS_STATUSES = [
  "IN_USER_WALLET",
  "BURNED_ON_SOURCE",
  "AWAITING_ATTESTATION",
  "USDC_ON_INTERMEDIATE",
  "IN_TRANSIT_TO_DESTINATION",
  "USDM_ON_DESTINATION",
  "COPM_ON_DESTINATION",
  "DELIVERED_TO_DESTINATION",
] as const;
export type FundsStatus = (typeof FUNDS_STATUSES)[number];

export const HEALTHS = ["HEALTHY", "STUCK"] as const;

/** What a burn report may say: every status and funds status after the burn. */
export const BURNED_STATUSES = ORDER_STATUSES.slice(1) as Exclude<OrderStatus, "CREATED">[];
export const BURNED_FUNDS_STATUSES = FUNDS_STATUSES.slice(1) as Exclude<FundsStatus, "IN_USER_WALLET">[];
