import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { z } from "zod";
import { settlementMints, settlementTransactions } from "../../../schema";
import { tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { mintReturnHookData } from "../../kernel/chain/forwarding";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import type { ServiceContext } from "../../kernel/context";
import { ApiError } from "../../kernel/errors/api-error";
import { defineJob } from "../../kernel/jobs/definition";
import { orderScope } from "../accounts";
import type { SettlementServices } from "../context";
import { checkRelay } from "../legs/circle";
import { legOverdue } from "../legs/deadlines";
import { returnBurnRequest } from "../legs/return";
import { askReattestation, attestationOfBurn } from "../legs/vendor-polls";
import { sendOnce } from "../payments";
import { pollDedupeId } from "../progress/advance";
import type { ProgressContext } from "../progress/steps";
import { claimsOf } from "./claims";

type MintRow = typeof settlementMints.$inferSelect;

/** The return's payments: its burn on the intermediate chain, and the service's relay of its mint. */
const returnPurpose = (mintId: string) => `mint-return:${mintId}`;
const relayPurpose = (mintId: string) => `mint-return-relay:${mintId}`;

export const advanceMintReturnJob = defineJob<{ mintId: string }, SettlementServices>({
  kind: "settlement.mint-return",
  payload: z.object({ mintId: z.string().min(1) }),
  run: (ctx, { mintId }) => advanceMintReturn(ctx, mintId),
});

async function scheduleMintReturn(ctx: ServiceContext, mintId: string, delaySeconds: number) {
  const dedupeId = pollDedupeId(ctx, `mint-return:${mintId}`, delaySeconds);
  await ctx.jobs.enqueue(advanceMintReturnJob, { mintId }, { delaySeconds, dedupeId });
}

/** The source chain a mint came from, when the service serves it: the return goes back there. */
export function sourceChainOf(ctx: SettlementServices, sourceDomain: number): ConfiguredChain | undefined {
  return ctx.chains.chains.find((chain) => chain.role === "source" && chain.cctpDomain === sourceDomain);
}

/**
 * The operator asks a mint no order claims back to its depositor (docs/settlement.md, "Unclaimed
 * mints"). Refused while an order claims it or may still (MINT_NOT_RETURNABLE), or when its source
 * chain is not one the service serves; asked again, it answers the mint as it stands, and a return
 * whose burn or relay reverted is tried afresh (the reverted payment kept aside). The return
 * itself runs as a job: burned back over CCTP, then minted on the source chain.
 */
export async function requestMintReturn(
  ctx: SettlementServices,
  mintId: string,
  reason: string,
): Promise<MintRow> {
  const requested = await ctx.db.transaction(async (tx) => {
    const [mint] = await tx
      .select()
      .from(settlementMints)
      .where(eq(settlementMints.id, mintId))
      .for("update");
    if (!mint) throw new ApiError("UNCLAIMED_MINT_NOT_FOUND");
    if (mint.status !== "found") {
      // Asked again after its burn or relay reverted: the reverted payment is kept aside, and tried afresh.
      if (mint.attention === null || mint.status === "returned") return mint;
      await tx
        .update(settlementTransactions)
        .set({
          purpose: sql`${settlementTransactions.purpose} || ':reverted:' || ${settlementTransactions.id}`,
        })
        .where(
          and(
            isNull(settlementTransactions.orderId),
            inArray(settlementTransactions.purpose, [returnPurpose(mint.id), relayPurpose(mint.id)]),
            eq(settlementTransactions.status, "reverted"),
          ),
        );
      const [again] = await tx
        .update(settlementMints)
        .set({ attention: null, returnReason: reason, updatedAt: ctx.clock.now() })
        .where(eq(settlementMints.id, mintId))
        .returning();
      return again ?? mint;
    }
    const claim = (await claimsOf(tx, [mint], (chainId) => ctx.chains.known(chainId)?.cctpDomain)).get(
      mint.nonce,
    );
    if (claim && claim.kind !== "unclaimed") {
      throw new ApiError("MINT_NOT_RETURNABLE", {
        detail:
          claim.kind === "claimed"
            ? `(order ${claim.orderId} claims it)`
            : `(order ${claim.orderId} carries its commitment and is not attested yet)`,
      });
    }
    if (!sourceChainOf(ctx, mint.sourceDomain)) {
      throw new ApiError("MINT_NOT_RETURNABLE", {
        detail: `(source domain ${mint.sourceDomain} is not served)`,
      });
    }
    const now = ctx.clock.now();
    const [updated] = await tx
      .update(settlementMints)
      .set({ status: "return_requested", returnReason: reason, returnRequestedAt: now, updatedAt: now })
      .where(eq(settlementMints.id, mintId))
      .returning();
    return updated ?? mint;
  });
  if (requested.status !== "returned") await scheduleMintReturn(ctx, mintId, 0);
  return requested;
}

/**
 * One look at a mint's return: burn it back (a recorded payment of no order, one per mint), then
 * wait for Circle's attestation and the mint to the depositor on the source chain, relaying the
 * message itself when Circle's forward failed or is past the RETURNING deadline. Schedules itself
 * again until the mint is returned.
 */
async function advanceMintReturn(ctx: ProgressContext, mintId: string): Promise<void> {
  const [mint] = await ctx.db.select().from(settlementMints).where(eq(settlementMints.id, mintId));
  if (!mint || mint.status === "found" || mint.status === "returned") return;
  const again =
    mint.status === "return_requested" ? await burnBack(ctx, mint) : await observeMintReturn(ctx, mint);
  if (again) await scheduleMintReturn(ctx, mintId, ctx.config.SETTLEMENT_POLL_SECONDS);
}

async function update(ctx: ServiceContext, mint: MintRow, set: Partial<MintRow>) {
  await ctx.db
    .update(settlementMints)
    .set({ ...set, updatedAt: ctx.clock.now() })
    .where(and(eq(settlementMints.id, mint.id), eq(settlementMints.status, mint.status)));
}

/** The way back of a mint: from the intermediate chain to its source chain, with what each leg needs. */
function wayBack(ctx: SettlementServices, mint: MintRow) {
  const intermediate = ctx.chains.byRole("intermediate");
  const source = sourceChainOf(ctx, mint.sourceDomain);
  // The account the mint went to returns it.
  const account = orderScope(ctx, { settlementAccount: mint.recipient }).settlement.accountSigner;
  const messenger = intermediate?.contracts.tokenMessenger;
  const usdc = intermediate?.contracts.usdc;
  const from = intermediate?.cctpDomain;
  const to = source?.cctpDomain;
  if (!intermediate || !source || !account || !messenger || !usdc || from === undefined || to === undefined) {
    return undefined;
  }
  return { intermediate, source, account, messenger, usdc, domains: { from, to } };
}

/** Returns whether to look again. */
async function burnBack(ctx: ProgressContext, mint: MintRow): Promise<boolean> {
  const way = wayBack(ctx, mint);
  if (!way) {
    await update(ctx, mint, {
      attention: "no settlement account, messenger or source chain to return it with",
    });
    return false;
  }
  const { intermediate, account, messenger, usdc, domains } = way;
  const outcome = await sendOnce(ctx, {
    orderId: null,
    purpose: returnPurpose(mint.id),
    chain: intermediate,
    account,
    prepare: () =>
      returnBurnRequest(ctx, {
        amount: mint.amount,
        from: { domain: domains.from, usdc, messenger },
        toDomain: domains.to,
        recipient: mint.depositor as Hex,
        hookData: mintReturnHookData(mint.id),
      }),
  });
  if (outcome.state === "pending") return true;
  if (outcome.state !== "success") {
    const why = outcome.state === "refused" ? outcome.reason : `the return burn ${outcome.hash} reverted`;
    await update(ctx, mint, { attention: why });
    return false;
  }
  const receipt = await intermediate.client.getTransactionReceipt({ hash: outcome.hash });
  const [burn] = parseEventLogs({
    abi: tokenMessengerV2Abi,
    eventName: "DepositForBurn",
    logs: receipt.logs,
  });
  if (!burn) throw new Error(`the mint return ${outcome.hash} shows no DepositForBurn`);
  const block = await intermediate.client.getBlock({ blockNumber: receipt.blockNumber });
  await update(ctx, mint, {
    status: "returning",
    attention: null,
    returnBurnTxHash: outcome.hash.toLowerCase(),
    returnAmount: burn.args.amount,
    returnMaxFee: burn.args.maxFee,
    returnBurnedAt: new Date(Number(block.timestamp) * 1000),
  });
  return true;
}

/** Returns whether to look again. */
async function observeMintReturn(ctx: ProgressContext, mint: MintRow): Promise<boolean> {
  const way = wayBack(ctx, mint);
  const burnTxHash = mint.returnBurnTxHash as Hex | null;
  if (!way || !burnTxHash || mint.returnAmount === null) return false;
  const { source, account, domains } = way;
  const depositor = mint.depositor as Hex;
  const hookData = mintReturnHookData(mint.id);
  const attestation = await attestationOfBurn(ctx, {
    sourceDomain: domains.from,
    burnTxHash,
    destinationDomain: domains.to,
    mintRecipient: depositor,
    amount: mint.returnAmount,
    hookData,
  });
  if (attestation.status !== "complete" || !attestation.eventNonce) return true;
  const eventNonce = attestation.eventNonce as Hex;
  const minted = await ctx.providers.legs.returnedMint(source.chainId).forwardedMint({
    eventNonce,
    mintRecipient: depositor,
    ...(mint.returnBurnedAt ? { after: mint.returnBurnedAt } : {}),
    ...(attestation.forwardTxHash ? { forwardTxHash: attestation.forwardTxHash } : {}),
  });
  if (minted) {
    await update(ctx, mint, {
      status: "returned",
      attention: null,
      returnMintTxHash: minted.txHash.toLowerCase(),
      returnedAmount: minted.amount,
      returnFeeCollected: minted.feeCollected,
    });
    ctx.log.info("unclaimed mint returned", { mintId: mint.id, returnMintTxHash: minted.txHash });
    return false;
  }
  const overdue = mint.returnBurnedAt !== null && legOverdue(ctx, "RETURNING", mint.returnBurnedAt);
  if (attestation.forwardState !== "failed" && !overdue) return true;
  const check = await checkRelay({
    chain: source,
    eventNonce,
    message: attestation.message,
    attestation: attestation.attestation,
    mintRecipient: depositor,
    amount: mint.returnAmount,
    hookData,
  });
  if (check.kind === "unusable") {
    await update(ctx, mint, {
      attention: `Circle's forward of the return failed or is late, and ${check.why}`,
    });
    return true;
  }
  if (check.kind === "expired") await askReattestation(ctx, eventNonce);
  if (check.kind !== "send") return true;
  const relayed = await sendOnce(ctx, {
    orderId: null,
    purpose: relayPurpose(mint.id),
    chain: source,
    account,
    prepare: async () => check.request,
  });
  if (relayed.state === "reverted" || relayed.state === "refused") {
    await update(ctx, mint, {
      attention: relayed.state === "refused" ? relayed.reason : `the relay ${relayed.hash} reverted`,
    });
  }
  return true;
}

/** Returns asked or under way that no job has looked at for three polls: looked at again. */
export async function resumeMintReturns(ctx: SettlementServices): Promise<number> {
  const quiet = new Date(ctx.clock.now().getTime() - 3 * ctx.config.SETTLEMENT_POLL_SECONDS * 1000);
  const rows = await ctx.db
    .select({ id: settlementMints.id })
    .from(settlementMints)
    .where(
      and(
        inArray(settlementMints.status, ["return_requested", "returning"]),
        lt(settlementMints.updatedAt, quiet),
      ),
    )
    .limit(100);
  for (const row of rows) await scheduleMintReturn(ctx, row.id, 0);
  return rows.length;
}
