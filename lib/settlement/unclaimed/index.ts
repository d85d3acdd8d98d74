/**
 * Mints to the settlement account that no order claims (docs/settlement.md, "Unclaimed mints"):
 * found on the intermediate chain, listed for the operator, returned to their depositors.
 */
import type { SweepHook } from "../../kernel/sweep";
import type { SettlementServices } from "../context";
import { listUnclaimedMints, type UnclaimedMintView, unclaimedMintView } from "./list";
import { advanceMintReturnJob, requestMintReturn, resumeMintReturns } from "./return";
import { scanMints } from "./scan";

export { MINT_RETURN_STATES } from "../../../schema";
export { advanceMintReturnJob, listUnclaimedMints, type UnclaimedMintView };

/** The operator's return of an unclaimed mint: asked, and answered as it stands. */
export async function returnUnclaimedMint(
  ctx: SettlementServices,
  mintId: string,
  reason: string,
): Promise<UnclaimedMintView> {
  return unclaimedMintView(ctx, await requestMintReturn(ctx, mintId, reason));
}

/** Each sweep reads the intermediate chain's new mints to the settlement account and resumes returns no job looked at lately. */
export const findUnclaimedMints: SweepHook<SettlementServices> = {
  name: "find-unclaimed-mints",
  async run(ctx) {
    return (await scanMints(ctx)) + (await resumeMintReturns(ctx));
  },
};
