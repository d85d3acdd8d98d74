import type { Hex } from "viem";
import { route as listRoute } from "../../functions/settlement/admin-list-unclaimed";
import { runSweep } from "../../lib/kernel/sweep";
import { findUnclaimedMints, type UnclaimedMintView } from "../../lib/settlement";
import type { Harness } from "./app";
import { bodyOf } from "./bodies";
import { sourceOf } from "./burns";
import { quietContext } from "./context";
import { adminRequest } from "./tenants";

/** One sweep's search for mints, then the operator's list. */
export async function unclaimedMints(h: Harness): Promise<UnclaimedMintView[]> {
  await runSweep(quietContext(h), [findUnclaimedMints]);
  const { mints } = await bodyOf(await adminRequest(h, "/admin/settlements/unclaimed"), listRoute, 200);
  return mints;
}

/**
 * Asks Iris about a burn as Circle's own Forwarding Service acts on every burn that asks for it: the
 * local Circle forwards a burn once anyone asks about it, and no order asks about a burn it does not own.
 */
async function askCircleAbout(h: Harness, sourceDomain: number, txHash: Hex): Promise<void> {
  const circle = h.vendors?.circle.url;
  if (!circle) throw new Error("the harness has no local Circle");
  const response = await fetch(`${circle}/v2/messages/${sourceDomain}?transactionHash=${txHash}`);
  await response.arrayBuffer();
}

/** Looks until a mint of the depositor's appears in the list (Circle attests, then forwards). */
export async function mintOfDepositor(
  h: Harness,
  burn: { txHash: Hex; depositor: Hex },
): Promise<UnclaimedMintView> {
  const sourceDomain = sourceOf(h).cctpDomain;
  if (sourceDomain === undefined) throw new Error("the source chain has no CCTP domain");
  for (let look = 0; look < 40; look++) {
    await askCircleAbout(h, sourceDomain, burn.txHash);
    const found = (await unclaimedMints(h)).find(
      (mint) => mint.depositor.toLowerCase() === burn.depositor.toLowerCase(),
    );
    if (found) return found;
    h.clock.advance(2_000);
  }
  throw new Error(`no mint of ${burn.depositor}'s burn ${burn.txHash} was found`);
}

/** Carries a return forward a poll at a time until the list says it is returned. */
export async function returnedMint(h: Harness, mintId: string): Promise<UnclaimedMintView> {
  for (let poll = 0; poll < 60; poll++) {
    await h.jobs.drain();
    const mint = (await unclaimedMints(h)).find((candidate) => candidate.id === mintId);
    if (mint?.status === "returned") return mint;
    h.clock.advance(5_000);
  }
  throw new Error(`mint ${mintId} was not returned`);
}
