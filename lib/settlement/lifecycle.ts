/**
 * The order lifecycle of spec 2.2 and docs/architecture.md, in order, then the return this service
 * adds (docs/settlement.md, "Returns"): an order that cannot deliver its floor sends its USDC back to
 * the user's source address, RETURNING then RETURNED (from the destination chain by way of the
 * intermediate chain: RETURNING_TO_INTERMEDIATE, then USDC_ON_INTERMEDIATE while RETURNING). These
 * extend the spec's lists.
 */
export const ORDER_STATUSES = [
  "CREATED",
  "BURNED",
  "ATTESTED",
  "MINTED",
  "ROUTING",
  "ROUTED",
  "DELIVERED",
  "RETURNING",
  "RETURNED",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Where an order ends: nothing moves it after these. */
export const FINAL_STATUSES = ["DELIVERED", "RETURNED"] as const satisfies readonly OrderStatus[];

export function isFinal(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

export const FUNDS_STATUSES = [
  "IN_USER_WALLET",
  "BURNED_ON_SOURCE",
  "AWAITING_ATTESTATION",
  "USDC_ON_INTERMEDIATE",
  "IN_TRANSIT_TO_DESTINATION",
  "USDM_ON_DESTINATION",
  "COPM_ON_DESTINATION",
  "DELIVERED_TO_DESTINATION",
  "RETURNING_TO_INTERMEDIATE",
  "RETURNING_TO_SOURCE",
  "RETURNED_TO_SOURCE",
  // Every way back was refunded: the USDm went to the user's own address on the destination chain.
  "RETURNED_ON_DESTINATION",
] as const;
export type FundsStatus = (typeof FUNDS_STATUSES)[number];

export const HEALTHS = ["HEALTHY", "STUCK"] as const;

/** What a burn report may say: every status and funds status after the burn. */
export const BURNED_STATUSES = ORDER_STATUSES.slice(1) as Exclude<OrderStatus, "CREATED">[];
export const BURNED_FUNDS_STATUSES = FUNDS_STATUSES.slice(1) as Exclude<FundsStatus, "IN_USER_WALLET">[];
