import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { settlementEvents, settlementOrders } from "../../../schema";
import { hookCommitment, orderCommitment } from "../../kernel/chain/forwarding";
import type { Database } from "../../kernel/db/database";
import type { OrderStatus } from "../lifecycle";

/**
 * Who a mint to the settlement account belongs to: the order whose attestation names its nonce
 * (`claimed`); an order whose commitment its hook data carries, that burns from the mint's source
 * domain and is not attested yet, and so may still claim it (`claimable`: its burn not reported, or
 * reported and not attested); else no one.
 */
export type MintClaim =
  | { kind: "claimed"; orderId: string }
  | { kind: "claimable"; orderId: string }
  | { kind: "unclaimed" };

/** Orders that may still claim a mint: an order's nonce is fixed from ATTESTED on. */
const NOT_ATTESTED: OrderStatus[] = ["CREATED", "BURNED"];

/**
 * The claims on each mint, by nonce. Orders not attested yet are read before the attestations: an
 * order moves only forward, so one not found waiting had its nonce recorded before the second read
 * (or can never claim), and no mint is called unclaimed while an order is about to claim it.
 */
export async function claimsOf(
  db: Database,
  mints: ReadonlyArray<{ nonce: string; hookData: string; sourceDomain: number }>,
  /** The CCTP domain of an order's chain: a mint is claimable only by an order burning from its domain. */
  domainOf: (chainId: number) => number | undefined,
): Promise<Map<string, MintClaim>> {
  const claims = new Map<string, MintClaim>(mints.map((mint) => [mint.nonce, { kind: "unclaimed" }]));
  if (mints.length === 0) return claims;
  const commitments = new Map<string, string>();
  for (const mint of mints) {
    const commitment = hookCommitment(mint.hookData as Hex);
    if (commitment) commitments.set(mint.nonce, commitment);
  }
  const waiting = new Map<string, { orderId: string; domain: number | undefined }>();
  if (commitments.size > 0) {
    const rows = await db
      .select({
        id: settlementOrders.id,
        commitment: settlementOrders.commitment,
        chainId: sql<string>`${settlementOrders.execution}->>'chainId'`,
      })
      .from(settlementOrders)
      .where(
        and(
          inArray(settlementOrders.status, NOT_ATTESTED),
          // An order without a signed burn plan can never take a burn, so it claims nothing.
          sql`${settlementOrders.execution}->>'mode' = 'signed_burn_plan'`,
          // Orders made before the commitment was kept: theirs is computed from the id.
          sql`(${inArray(settlementOrders.commitment, [...new Set(commitments.values())])} or ${isNull(settlementOrders.commitment)})`,
        ),
      );
    for (const row of rows) {
      waiting.set(row.commitment ?? orderCommitment(row.id), {
        orderId: row.id,
        domain: domainOf(Number(row.chainId)),
      });
    }
  }
  for (const mint of mints) {
    const commitment = commitments.get(mint.nonce);
    const order = commitment ? waiting.get(commitment) : undefined;
    // A burn from another chain than the order's can never be its burn (it verifies burns on its own
    // chain; a deposit order takes no burn at all): that mint is returnable. An order whose chain is
    // not known at all keeps its claim, as returning money an order may take is the worse mistake.
    if (order && (order.domain === undefined || order.domain === mint.sourceDomain)) {
      claims.set(mint.nonce, { kind: "claimable", orderId: order.orderId });
    }
  }
  const attested = await db
    .select({
      orderId: settlementEvents.orderId,
      nonce: sql<string>`lower(${settlementEvents.detail}->>'eventNonce')`,
    })
    .from(settlementEvents)
    .where(
      and(
        eq(settlementEvents.kind, "ATTESTED"),
        inArray(
          sql`lower(${settlementEvents.detail}->>'eventNonce')`,
          mints.map((mint) => mint.nonce),
        ),
      ),
    );
  for (const row of attested) claims.set(row.nonce, { kind: "claimed", orderId: row.orderId });
  return claims;
}
