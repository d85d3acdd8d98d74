import { ApiError } from "../kernel/errors/api-error";
import type { SettlementContext } from "./context";

/**
 * Whether this organization may start a settlement now. Refusals happen before anything is signed,
 * so the user still holds the USDC.
 */
export function assertIntakeOpen(ctx: SettlementContext, stage: string): `0x${string}` {
  if (ctx.settlement.intakePaused || ctx.caller.organization.intakePaused) {
    throw new ApiError("INTAKE_PAUSED", { stage });
  }
  if (!ctx.caller.organization.settlementAccountActive || !ctx.settlement.accountAddress) {
    throw new ApiError("SETTLEMENT_ACCOUNT_INACTIVE", { stage });
  }
  return ctx.settlement.accountAddress;
}
