import type { SettlementServices } from "../context";
import { decideReturn } from "../legs/return-decision";
import { scheduleAdvance } from "../progress/advance";

/** The operator's return, through the admin API: decided, then the order is looked at now. */
export async function returnOrder(ctx: SettlementServices, orderId: string, reason: string) {
  const decided = await decideReturn(ctx, orderId, { reason, by: "operator" });
  await scheduleAdvance(ctx, orderId, 0);
  return decided;
}
