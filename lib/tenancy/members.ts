import { and, asc, eq, isNull } from "drizzle-orm";
import { organizationMembers } from "../../schema";
import { auditFields, recordAudit } from "../audit/record";
import { maskedEmail, normalizedEmail } from "../identity/identity-input";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { getOrganization, required } from "./organizations";

export type OrganizationMember = typeof organizationMembers.$inferSelect;

/**
 * Adds a member by email (lower-cased). An email that is already an active member of the
 * organization answers that member, unchanged, with `created: false`: adding is idempotent, also
 * when two requests race (the partial unique index lets one insert win). A revoked member's email
 * may be added again as a new member.
 */
export async function addMember(
  ctx: ServiceContext,
  organizationId: string,
  input: { email: string },
): Promise<{ member: OrganizationMember; created: boolean }> {
  await getOrganization(ctx, organizationId);
  const email = normalizedEmail(input.email);
  const inserted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(organizationMembers)
      .values({ id: newId("mbr", ctx.clock), organizationId, email, createdAt: ctx.clock.now() })
      .onConflictDoNothing()
      .returning();
    if (row) {
      await recordAudit(ctx, tx, {
        organizationId,
        action: "member.added",
        targetId: row.id,
        after: auditFields(row, ["email"]),
      });
    }
    return row;
  });
  if (inserted) {
    ctx.log.info("organization member added", {
      organizationId,
      memberId: inserted.id,
      email: maskedEmail(email),
    });
    return { member: inserted, created: true };
  }
  const [existing] = await ctx.db
    .select()
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.email, email),
        isNull(organizationMembers.revokedAt),
      ),
    );
  return { member: required(existing), created: false };
}

/** Every member the organization has had, oldest first; revoked ones carry `revokedAt`. */
export async function listMembers(
  ctx: ServiceContext,
  organizationId: string,
): Promise<OrganizationMember[]> {
  await getOrganization(ctx, organizationId);
  return ctx.db
    .select()
    .from(organizationMembers)
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(asc(organizationMembers.id));
}

/**
 * Revoking is immediate and final for that member (the email may be added again as a new member);
 * revoking a revoked member answers it as it is. A member of another organization is not found.
 */
export async function revokeMember(
  ctx: ServiceContext,
  organizationId: string,
  memberId: string,
): Promise<OrganizationMember> {
  const ofOrganization = and(
    eq(organizationMembers.id, memberId),
    eq(organizationMembers.organizationId, organizationId),
  );
  const revoked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizationMembers)
      .set({ revokedAt: ctx.clock.now() })
      .where(and(ofOrganization, isNull(organizationMembers.revokedAt)))
      .returning();
    if (row) {
      await recordAudit(ctx, tx, {
        organizationId,
        action: "member.revoked",
        targetId: row.id,
        before: { email: row.email, revokedAt: null },
        after: auditFields(row, ["email", "revokedAt"]),
      });
    }
    return row;
  });
  if (revoked) {
    ctx.log.info("organization member revoked", { organizationId, memberId });
    return revoked;
  }
  const [existing] = await ctx.db.select().from(organizationMembers).where(ofOrganization);
  if (existing) return existing;
  await getOrganization(ctx, organizationId);
  // No code of its own yet: NOT_FOUND (404), with a detail saying what was not found.
  throw new ApiError("NOT_FOUND", {
    detail: {
      es: "No se encontró el miembro en esta organización.",
      en: "The member was not found in this organization.",
    },
  });
}
