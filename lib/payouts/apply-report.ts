import { and, eq, inArray, ne } from "drizzle-orm";
import { brebPayouts } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { isUniqueViolation } from "../kernel/db/errors";
import type { BrebPayoutReport, BrebPayoutState } from "./breb-provider";
import { noteMove, notePayout } from "./payout-records";
import type { PayoutRow, PayoutStatus } from "./payout-view";
import { IN_FLIGHT } from "./payout-work";
import { proveRefund, type RefundProof } from "./refund-proof";

type ProvenRefund = Extract<RefundProof, { kind: "proven" }>;

/** Where a provider state sits on the way: a report only ever moves a payout forward. */
const PATH: Record<BrebPayoutState, PayoutStatus[]> = {
  processing: ["processing"],
  completed: ["processing", "completed"],
  failed: ["processing", "failed"],
  refunded: ["processing", "failed", "refunded"],
};

/**
 * A provider report, from a callback or a poll: the payout moves through each state between where it
 * is and where the report says (compare-and-set, a timeline entry and an event for each), unless it
 * is there already or beyond, or the report is older than the one it holds. Duplicates and late,
 * out-of-order reports change nothing. A `refunded` report moves the payout to `refunded` only once
 * the payout chain shows the refund (proveRefund); until then the provider's word that the payout
 * failed stands, the payout stays `failed` (its refund owed) and its timeline says what the chain
 * showed instead (`refund_unproven`, once per hash and reason). The payout's job asks the provider
 * again every PAYOUT_POLL_SECONDS, so a refund not yet mined is proven once it is.
 */
export async function applyPayoutReport(
  ctx: ServiceContext,
  report: BrebPayoutReport,
): Promise<{ applied: boolean }> {
  if (report.status !== "refunded") return { applied: await move(ctx, report) };
  let proof = await checkRefund(ctx, report);
  if (proof === undefined) return { applied: false };
  if (proof.kind === "proven") {
    try {
      return { applied: await move(ctx, report, proof) };
    } catch (error) {
      // Another payout's refund took the same Transfer first, between the read and the write.
      if (!isUniqueViolation(error)) throw error;
      proof = { kind: "unproven", why: "its Transfer to the wallet is another payout's refund" };
    }
  }
  const failed = await move(ctx, { ...report, status: "failed" });
  const hash = report.refundTxHash?.toLowerCase() ?? null;
  const noted = await notePayout(ctx, ctx.db, report.payoutId, {
    note: "refund_unproven",
    detail: `the provider reports the refund ${hash ?? "(no transaction named)"}, which the chain does not show as one: ${proof.why}${proof.kind === "waiting" ? "; asked again" : ""}`,
    txHash: hash,
    once: true,
  });
  if (noted) {
    ctx.log.warn("payout refund reported but not proven on chain; the payout stays failed", {
      payoutId: report.payoutId,
      refundTxHash: hash,
      why: proof.why,
      ...(proof.kind === "waiting" && proof.cause ? { cause: proof.cause } : {}),
    });
  }
  return { applied: failed };
}

/**
 * The chain's view of the refund a report names, for a payout the report would move: undefined when
 * it would not (unknown, final, or the report is behind the one held).
 */
async function checkRefund(ctx: ServiceContext, report: BrebPayoutReport): Promise<RefundProof | undefined> {
  const [payout] = await ctx.db.select().from(brebPayouts).where(eq(brebPayouts.id, report.payoutId));
  if (!payout || !IN_FLIGHT.includes(payout.status as PayoutStatus) || behind(payout, report))
    return undefined;
  if (!report.refundTxHash) return { kind: "unproven", why: "the report names no refund transaction" };
  const chain = ctx.chains.byRole("destination");
  if (!chain || chain.chainId !== payout.chainId) {
    return { kind: "waiting", why: "the payout chain is not configured" };
  }
  const hash = report.refundTxHash.toLowerCase();
  const others = await ctx.db
    .select({ logIndex: brebPayouts.refundLogIndex })
    .from(brebPayouts)
    .where(and(eq(brebPayouts.refundTxHash, hash), ne(brebPayouts.id, payout.id)));
  const taken = others.flatMap((other) => (other.logIndex === null ? [] : [other.logIndex]));
  return proveRefund(chain, payout, hash, taken);
}

function behind(payout: PayoutRow, report: BrebPayoutReport): boolean {
  return payout.providerUpdatedAt !== null && !(new Date(report.updatedAt) >= payout.providerUpdatedAt);
}

/** The moves a report makes, in one transaction; whether any was made. */
async function move(ctx: ServiceContext, report: BrebPayoutReport, refund?: ProvenRefund): Promise<boolean> {
  const reportedAt = new Date(report.updatedAt);
  let short: { owed: bigint; refunded: bigint } | undefined;
  const moved = await ctx.db.transaction(async (tx) => {
    const [payout] = await tx
      .select()
      .from(brebPayouts)
      .where(eq(brebPayouts.id, report.payoutId))
      .for("update");
    if (!payout || !IN_FLIGHT.includes(payout.status as PayoutStatus) || behind(payout, report)) {
      return undefined;
    }
    const path = PATH[report.status];
    const from = path.indexOf(payout.status as PayoutStatus);
    // Off the report's path and past its start (a failed payout, reported processing or completed):
    // the report is behind the payout, whatever its time says.
    if (from === -1 && payout.status !== "deposit_confirmed") return undefined;
    const steps = path.slice(from + 1);
    if (steps.length === 0) return undefined;
    let current: PayoutRow = payout;
    for (const status of steps) {
      if (status === "refunded" && !refund) throw new Error(`payout ${payout.id}: a refund with no proof`);
      const [row] = await tx
        .update(brebPayouts)
        .set({
          status,
          providerPayoutId: report.providerPayoutId,
          providerUpdatedAt: Number.isNaN(reportedAt.getTime()) ? null : reportedAt,
          ...(status === "completed" ? { brebTransactionId: report.brebTransactionId ?? null } : {}),
          ...(status === "failed"
            ? { failureReason: report.failureReason ?? "the provider reported a failure" }
            : {}),
          ...(status === "refunded" && refund
            ? { refundTxHash: refund.txHash, refundLogIndex: refund.logIndex, refundAmount: refund.amount }
            : {}),
          updatedAt: ctx.clock.now(),
        })
        .where(and(eq(brebPayouts.id, current.id), inArray(brebPayouts.status, [current.status])))
        .returning();
      if (!row) throw new Error(`payout ${current.id} moved under its lock`);
      await noteMove(ctx, tx, row, {
        status,
        detail: detailOf(status, report, refund),
        txHash: status === "refunded" ? (refund?.txHash ?? null) : null,
      });
      if (status === "refunded" && refund && refund.amount < row.providerAmount) {
        short = { owed: row.providerAmount, refunded: refund.amount };
        await notePayout(ctx, tx, row.id, {
          note: "refund_short",
          detail: `the refund paid ${refund.amount} of the ${row.providerAmount} owed (atomic units): ${row.providerAmount - refund.amount} short; for the operator`,
          txHash: refund.txHash,
        });
      }
      current = row;
    }
    return current;
  });
  if (moved && short) {
    ctx.log.error("payout refunded short of what was owed: the operator follows it up", {
      payoutId: moved.id,
      refundTxHash: moved.refundTxHash,
      owed: short.owed.toString(),
      refunded: short.refunded.toString(),
    });
  }
  return moved !== undefined;
}

function detailOf(status: PayoutStatus, report: BrebPayoutReport, refund?: ProvenRefund): string | null {
  switch (status) {
    case "processing":
      return `provider payout ${report.providerPayoutId}`;
    case "completed":
      return `BRE-B transaction ${report.brebTransactionId ?? "(not given)"}`;
    case "failed":
      return report.failureReason ?? null;
    case "refunded":
      return refund
        ? `Transfer log ${refund.logIndex} paid the wallet ${refund.amount} (atomic units), from ${refund.from}`
        : null;
    default:
      return null;
  }
}
