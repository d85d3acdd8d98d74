import { and, desc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { deniedAddresses } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";

export type DeniedAddress = typeof deniedAddresses.$inferSelect;

/**
 * Lists an address on the operator's deny list with a reason. Listing an address already listed
 * answers that listing unchanged (`created: false`), also when two requests race (the partial
 * unique index lets one insert win). Screening sees it at once (the list is read, never cached).
 */
export async function denyAddress(
  ctx: ServiceContext,
  input: { address: `0x${string}`; reason: string },
): Promise<{ listing: DeniedAddress; created: boolean }> {
  const address = input.address.toLowerCase();
  const actor = ctx.actor ?? { type: "service" as const, id: "service", ip: null };
  const [inserted] = await ctx.db
    .insert(deniedAddresses)
    .values({
      id: newId("dny", ctx.clock),
      address,
      reason: input.reason,
      addedBy: actor.type === "member" || actor.type === "api_key" ? `${actor.type}:${actor.id}` : actor.type,
      addedFromIp: actor.ip,
      addedAt: ctx.clock.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) {
    ctx.log.warn("address denied", { address, listingId: inserted.id });
    return { listing: inserted, created: true };
  }
  const [existing] = await ctx.db.select().from(deniedAddresses).where(activeListing(address));
  if (!existing) throw new Error("a listing that blocked an insert is gone");
  return { listing: existing, created: false };
}

/** Lifts an address's listing with a reason; the row stays as history. Not listed: 404 NOT_FOUND. */
export async function allowAddress(
  ctx: ServiceContext,
  input: { address: `0x${string}`; reason: string },
): Promise<DeniedAddress> {
  const address = input.address.toLowerCase();
  const actor = ctx.actor ?? { type: "service" as const, id: "service", ip: null };
  const [lifted] = await ctx.db
    .update(deniedAddresses)
    .set({
      removedAt: ctx.clock.now(),
      removedBy: actor.type,
      removedFromIp: actor.ip,
      removalReason: input.reason,
    })
    .where(activeListing(address))
    .returning();
  if (!lifted) {
    throw new ApiError("NOT_FOUND", {
      detail: {
        es: "La dirección no está en la lista de bloqueo.",
        en: "The address is not on the deny list.",
      },
    });
  }
  ctx.log.warn("address allowed again", { address, listingId: lifted.id });
  return lifted;
}

/** The list's whole history, newest first: active listings and lifted ones. */
export async function listDeniedAddresses(ctx: ServiceContext, limit: number): Promise<DeniedAddress[]> {
  return ctx.db
    .select()
    .from(deniedAddresses)
    .orderBy(desc(deniedAddresses.addedAt), desc(deniedAddresses.id))
    .limit(limit);
}

/** Which of `addresses` (any case) are listed now, lower-cased. */
export async function deniedAmong(db: Database, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .select({ address: deniedAddresses.address })
    .from(deniedAddresses)
    .where(
      and(
        inArray(
          deniedAddresses.address,
          addresses.map((address) => address.toLowerCase()),
        ),
        isNull(deniedAddresses.removedAt),
      ),
    );
  return new Set(rows.map((row) => row.address));
}

/**
 * A condition that holds while none of `addresses` is listed, for a write's WHERE: the write and
 * the deny list's read are then one statement, so a listing committed before the statement is seen
 * (`insert … select … where ${noneDenied([…])}`; when it inserts nothing, deniedAmong names who).
 * An address is a value (any case) or a query parameter (`sql.placeholder`, lower-cased in the
 * statement); none: always true.
 */
export function noneDenied(addresses: readonly (string | SQLWrapper)[]): SQL {
  if (addresses.length === 0) return sql`true`;
  const listed = sql.join(
    addresses.map((address) =>
      typeof address === "string" ? sql`${address.toLowerCase()}` : sql`lower(${address})`,
    ),
    sql`, `,
  );
  return sql`not exists (select 1 from ${deniedAddresses} where ${deniedAddresses.address} in (${listed}) and ${deniedAddresses.removedAt} is null)`;
}

function activeListing(address: string) {
  return and(eq(deniedAddresses.address, address), isNull(deniedAddresses.removedAt));
}
