import { asc, inArray, type SQL } from "drizzle-orm";
import { brebPayoutEvents, brebPayouts } from "../../schema";
import type { Database } from "../kernel/db/database";
import type { Receipt } from "../ledger/receipt";
import type { PayoutEventRow } from "./payout-view";
import { payoutReceipt } from "./receipt";

/**
 * The receipts of the payouts `where` picks (in id order, at most `limit`), with their timelines:
 * two queries however many payouts. The statements and the reconciliation read them so.
 */
export async function payoutReceipts(
  db: Database,
  where: SQL | undefined,
  limit?: number,
): Promise<{ id: string; organizationId: string; receipt: Receipt }[]> {
  const picked = db.select().from(brebPayouts).where(where).orderBy(asc(brebPayouts.id));
  const payouts = await (limit === undefined ? picked : picked.limit(limit));
  if (payouts.length === 0) return [];
  const events = await db
    .select()
    .from(brebPayoutEvents)
    .where(
      inArray(
        brebPayoutEvents.payoutId,
        payouts.map((payout) => payout.id),
      ),
    );
  const byPayout = new Map<string, PayoutEventRow[]>();
  for (const event of events) byPayout.set(event.payoutId, [...(byPayout.get(event.payoutId) ?? []), event]);
  return payouts.map((row) => ({
    id: row.id,
    organizationId: row.organizationId,
    receipt: payoutReceipt(row, byPayout.get(row.id) ?? []),
  }));
}
