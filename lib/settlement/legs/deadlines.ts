import type { Config } from "../../kernel/config";
import type { OrderStatus } from "../lifecycle";

/**
 * How long an order may stay in each status before it is STUCK, in seconds. Fast Transfer attests in
 * seconds to minutes (Standard in 15 to 20 minutes on Ethereum), the aggregator usually takes
 * minutes; the service's own sends take a block or two. Override with SETTLEMENT_LEG_DEADLINES
 * (JSON, e.g. {"ROUTING": 3600}).
 */
const DEFAULT_LEG_DEADLINES: Record<Exclude<OrderStatus, "CREATED" | "DELIVERED" | "RETURNED">, number> = {
  BURNED: 30 * 60,
  ATTESTED: 30 * 60,
  MINTED: 10 * 60,
  ROUTING: 60 * 60,
  ROUTED: 10 * 60,
  // A return is one CCTP transfer: Standard attestation, then a mint on the source chain.
  RETURNING: 60 * 60,
};

export type LegStatus = keyof typeof DEFAULT_LEG_DEADLINES;
export const LEG_STATUSES = Object.keys(DEFAULT_LEG_DEADLINES) as LegStatus[];

/** Whether a leg entered at `since` has outlived its deadline by the service's clock. */
export function legOverdue(
  ctx: { clock: { now(): Date }; config: Pick<Config, "SETTLEMENT_LEG_DEADLINES"> },
  status: LegStatus,
  since: Date,
): boolean {
  return ctx.clock.now().getTime() - since.getTime() >= legDeadlines(ctx.config)[status] * 1000;
}

/** Every leg's deadline in seconds: the defaults, with what SETTLEMENT_LEG_DEADLINES overrides. */
export function legDeadlines(config: Pick<Config, "SETTLEMENT_LEG_DEADLINES">): Record<LegStatus, number> {
  return { ...DEFAULT_LEG_DEADLINES, ...config.SETTLEMENT_LEG_DEADLINES };
}
