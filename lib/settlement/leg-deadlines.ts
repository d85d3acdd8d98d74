import type { OrderStatus } from "./lifecycle";

/**
 * How long an order may stay in each status before it is STUCK, in seconds. Fast Transfer attests in
 * seconds to minutes (Standard in 15 to 20 minutes on Ethereum), the aggregator usually takes
 * minutes; the service's own sends take a block or two. Override with SETTLEMENT_LEG_DEADLINES
 * (JSON, e.g. {"ROUTING": 3600}).
 */
export const DEFAULT_LEG_DEADLINES: Record<Exclude<OrderStatus, "CREATED" | "DELIVERED">, number> = {
  BURNED: 30 * 60,
  ATTESTED: 30 * 60,
  MINTED: 10 * 60,
  ROUTING: 60 * 60,
  ROUTED: 10 * 60,
};
