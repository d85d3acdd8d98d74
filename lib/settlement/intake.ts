import type { ScreenedAddress } from "../compliance";
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

/** A settlement's two parties as screening names them: the user's source and destination addresses. */
export function settlementParties(quote: {
  sourceAddress: string;
  destinationAddress: string;
}): ScreenedAddress[] {
  return [
    { address: quote.sourceAddress as `0x${string}`, field: "body.sourceAddress" },
    { address: quote.destinationAddress as `0x${string}`, field: "body.destinationAddress" },
  ];
}
