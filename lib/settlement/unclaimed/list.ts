import { desc, sql } from "drizzle-orm";
import { type MintReturnState, settlementMints } from "../../../schema";
import { FINALITY_STANDARD } from "../../kernel/chain/abis";
import { formatAmount, TOKEN_DECIMALS } from "../../kernel/money";
import type { SettlementServices } from "../context";
import { FEE_BUFFER_BPS } from "../limits";
import { returnMaxFee } from "../pricing/arithmetic";
import { claimsOf } from "./claims";
import { sourceChainOf } from "./return";

type MintRow = typeof settlementMints.$inferSelect;

/** A mint to the settlement account no order claims, as the operator sees it (amounts in USDC). */
export interface UnclaimedMintView {
  id: string;
  chainId: number;
  nonce: string;
  sourceDomain: number;
  /** The served chain of that domain, where the return goes; null when the service serves none. */
  sourceChainId: number | null;
  depositor: string;
  amountUsdc: string;
  feeCollectedUsdc: string;
  txHash: string;
  logIndex: number;
  mintedAt: string;
  status: MintReturnState;
  returnable: boolean;
  /** An order not attested yet whose commitment the mint's hook data carries: it may still claim the mint. */
  claimableBy: string | null;
  /** The most Circle may take to carry it back now (Standard finality, with the service's buffer); null when Circle's fees could not be read. */
  returnFeeUsdc: string | null;
  return: {
    reason: string | null;
    requestedAt: string | null;
    burnTxHash: string | null;
    amountUsdc: string | null;
    maxFeeUsdc: string | null;
    mintTxHash: string | null;
    receivedUsdc: string | null;
    feeCollectedUsdc: string | null;
  } | null;
  /** Why the return cannot go on now, for the operator. */
  attention: string | null;
}

/** The newest this many mints are listed. */
const LISTED = 500;

/**
 * Mints to the settlement account that no order's attestation names, newest first, with whether
 * each can be returned and what Circle would take for it (one fee read per source chain).
 */
export async function listUnclaimedMints(ctx: SettlementServices): Promise<UnclaimedMintView[]> {
  const rows = await ctx.db
    .select()
    .from(settlementMints)
    .where(
      sql`not exists (select 1 from settlement_events e where e.kind = 'ATTESTED' and lower(e.detail->>'eventNonce') = ${settlementMints.nonce})`,
    )
    .orderBy(desc(settlementMints.foundAt))
    .limit(LISTED);
  return viewsOf(ctx, rows);
}

/** The mints as the operator sees them, leaving out any an order claims. */
async function viewsOf(ctx: SettlementServices, rows: MintRow[]): Promise<UnclaimedMintView[]> {
  const claims = await claimsOf(ctx.db, rows, (chainId) => ctx.chains.known(chainId)?.cctpDomain);
  const fees = await returnFees(ctx, rows);
  return rows.flatMap((row) => {
    const claim = claims.get(row.nonce);
    if (claim?.kind === "claimed") return [];
    const source = sourceChainOf(ctx, row.sourceDomain);
    const fee = fees.get(row.sourceDomain);
    const maxFee = fee && returnMaxFee(row.amount, fee, FEE_BUFFER_BPS);
    return [
      {
        id: row.id,
        chainId: row.chainId,
        nonce: row.nonce,
        sourceDomain: row.sourceDomain,
        sourceChainId: source?.chainId ?? null,
        depositor: row.depositor,
        amountUsdc: usdc(row.amount),
        feeCollectedUsdc: usdc(row.feeCollected),
        txHash: row.txHash,
        logIndex: row.logIndex,
        mintedAt: row.mintedAt.toISOString(),
        status: row.status,
        returnable:
          row.status === "found" &&
          claim?.kind !== "claimable" &&
          source !== undefined &&
          (maxFee ?? 0n) < row.amount,
        claimableBy: claim?.kind === "claimable" ? claim.orderId : null,
        returnFeeUsdc: maxFee === undefined ? null : usdc(maxFee),
        return: row.status === "found" ? null : returnView(row),
        attention: row.attention,
      },
    ];
  });
}

function returnView(row: MintRow): UnclaimedMintView["return"] {
  const optional = (amount: bigint | null) => (amount === null ? null : usdc(amount));
  return {
    reason: row.returnReason,
    requestedAt: row.returnRequestedAt?.toISOString() ?? null,
    burnTxHash: row.returnBurnTxHash,
    amountUsdc: optional(row.returnAmount),
    maxFeeUsdc: optional(row.returnMaxFee),
    mintTxHash: row.returnMintTxHash,
    receivedUsdc: optional(row.returnedAmount),
    feeCollectedUsdc: optional(row.returnFeeCollected),
  };
}

/** One mint as the operator sees it, for the return's answer. */
export async function unclaimedMintView(ctx: SettlementServices, row: MintRow): Promise<UnclaimedMintView> {
  const [view] = await viewsOf(ctx, [row]);
  if (!view) throw new Error(`mint ${row.id} is claimed by an order`);
  return view;
}

async function returnFees(ctx: SettlementServices, rows: MintRow[]) {
  const intermediate = ctx.chains.byRole("intermediate")?.cctpDomain;
  const fees = new Map<number, Awaited<ReturnType<typeof ctx.providers.pricing.fees.transferFees>>>();
  for (const domain of new Set(rows.map((row) => row.sourceDomain))) {
    if (intermediate === undefined || !sourceChainOf(ctx, domain)) continue;
    try {
      fees.set(
        domain,
        await ctx.providers.pricing.fees.transferFees({
          sourceDomain: intermediate,
          destinationDomain: domain,
          finalityThreshold: FINALITY_STANDARD,
        }),
      );
    } catch (error) {
      ctx.log.warn("Circle's fees for an unclaimed mint's return could not be read", {
        sourceDomain: domain,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return fees;
}

const usdc = (amount: bigint) => formatAmount(amount, TOKEN_DECIMALS.USDC);
