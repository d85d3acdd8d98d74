import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { organizationMembers, organizations } from "../../schema";
import { auditFields, recordAudit } from "../audit/record";
import { maskedEmail, normalizedEmail } from "../identity/identity-input";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { getOrganization, required } from "./organizations";
import { type MemberRole, mayManage, type Permission, roleMay } from "./roles";

export type OrganizationMember = typeof organizationMembers.$inferSelect;

/**
 * Who asks for a change to the members: a dashboard member with their role, checked against the
 * role matrix (lib/tenancy/roles.ts); the operator (admin API) passes none and may do anything.
 */
export interface ActingMember {
  memberId: string;
  role: MemberRole;
}

/** A member's own permission, or 403 INSUFFICIENT_ROLE naming it. */
export function assertMemberMay(role: MemberRole, permission: Permission): void {
  if (!roleMay(role, permission)) {
    throw insufficientRole(permission);
  }
}

/**
 * Adds a member by email (lower-cased) with a role (the operator's default is owner: it adds a
 * partner's first people). An email that is already an active member of the organization answers
 * that member, unchanged, with `created: false`: adding is idempotent, also when two requests race
 * (the partial unique index lets one insert win). A revoked member's email may be added again.
 */
export async function addMember(
  ctx: ServiceContext,
  organizationId: string,
  input: { email: string; role?: MemberRole },
  by?: ActingMember,
): Promise<{ member: OrganizationMember; created: boolean }> {
  await getOrganization(ctx, organizationId);
  const role = input.role ?? "owner";
  if (by && !mayManage(by.role, role, role)) {
    throw insufficientRole("members:write");
  }
  const email = normalizedEmail(input.email);
  const inserted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(organizationMembers)
      .values({ id: newId("mbr", ctx.clock), organizationId, email, role, createdAt: ctx.clock.now() })
      .onConflictDoNothing()
      .returning();
    if (row) {
      await recordAudit(ctx, tx, {
        organizationId,
        action: "member.added",
        targetId: row.id,
        after: auditFields(row, ["email", "role"]),
      });
    }
    return row;
  });
  if (inserted) {
    ctx.log.info("organization member added", {
      organizationId,
      memberId: inserted.id,
      email: maskedEmail(email),
      role,
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
 * Gives an active member another role. The organization keeps at least one owner (409 LAST_OWNER);
 * the same role answers the member unchanged. A member of another organization, or a revoked one,
 * is not found.
 */
export async function changeMemberRole(
  ctx: ServiceContext,
  organizationId: string,
  memberId: string,
  role: MemberRole,
  by?: ActingMember,
): Promise<OrganizationMember> {
  const changed = await ctx.db.transaction(async (tx) => {
    const before = await lockedActiveMember(tx, organizationId, memberId);
    if (before.role === role) return before;
    if (by && !mayManage(by.role, before.role, role)) {
      throw insufficientRole("members:write");
    }
    if (before.role === "owner") await assertAnotherOwner(tx, organizationId, memberId);
    const [after] = await tx
      .update(organizationMembers)
      .set({ role })
      .where(eq(organizationMembers.id, memberId))
      .returning();
    await recordAudit(ctx, tx, {
      organizationId,
      action: "member.role_changed",
      targetId: memberId,
      before: auditFields(before, ["email", "role"]),
      after: after ? auditFields(after, ["email", "role"]) : null,
    });
    return required(after);
  });
  ctx.log.info("organization member role", { organizationId, memberId, role: changed.role });
  return changed;
}

/**
 * Revoking is immediate and final for that member (the email may be added again as a new member);
 * revoking a revoked member answers it as it is. The last owner cannot be revoked (409 LAST_OWNER).
 * A member of another organization is not found.
 */
export async function revokeMember(
  ctx: ServiceContext,
  organizationId: string,
  memberId: string,
  by?: ActingMember,
): Promise<OrganizationMember> {
  const revoked = await ctx.db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const [before] = await tx
      .select()
      .from(organizationMembers)
      .where(ofOrganization(organizationId, memberId));
    if (!before) throw memberNotFound();
    if (before.revokedAt) return before;
    if (by && !mayManage(by.role, before.role)) {
      throw insufficientRole("members:write");
    }
    if (before.role === "owner") await assertAnotherOwner(tx, organizationId, memberId);
    const [row] = await tx
      .update(organizationMembers)
      .set({ revokedAt: ctx.clock.now() })
      .where(eq(organizationMembers.id, memberId))
      .returning();
    await recordAudit(ctx, tx, {
      organizationId,
      action: "member.revoked",
      targetId: memberId,
      before: { email: before.email, role: before.role, revokedAt: null },
      after: row ? auditFields(row, ["email", "role", "revokedAt"]) : null,
    });
    return required(row);
  });
  ctx.log.info("organization member revoked", { organizationId, memberId });
  return revoked;
}

/** The active member, read after the organization's lock so owner counts cannot race. */
export async function lockedActiveMember(
  tx: Database,
  organizationId: string,
  memberId: string,
): Promise<OrganizationMember> {
  await lockOrganization(tx, organizationId);
  const [row] = await tx
    .select()
    .from(organizationMembers)
    .where(and(ofOrganization(organizationId, memberId), isNull(organizationMembers.revokedAt)));
  if (!row) throw memberNotFound();
  return row;
}

/**
 * Changes to an organization's members take turns on its row: two owners demoting each other at
 * once would otherwise both see the other still an owner.
 */
async function lockOrganization(tx: Database, organizationId: string): Promise<void> {
  const [row] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for("update");
  if (!row) throw new ApiError("ORGANIZATION_NOT_FOUND");
}

async function assertAnotherOwner(tx: Database, organizationId: string, memberId: string): Promise<void> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.role, "owner"),
        isNull(organizationMembers.revokedAt),
        sql`${organizationMembers.id} <> ${memberId}`,
      ),
    );
  if (Number(row?.count ?? 0) === 0) throw new ApiError("LAST_OWNER");
}

function ofOrganization(organizationId: string, memberId: string) {
  return and(eq(organizationMembers.id, memberId), eq(organizationMembers.organizationId, organizationId));
}

/** 403 naming the permission the member's role lacks (the role matrix's, docs/roles.md). */
export function insufficientRole(permission: Permission): ApiError {
  return new ApiError("INSUFFICIENT_ROLE", { detail: `(${permission})` });
}

function memberNotFound(): ApiError {
  // No code of its own: NOT_FOUND (404), with a detail saying what was not found.
  return new ApiError("NOT_FOUND", {
    detail: {
      es: "No se encontró el miembro en esta organización.",
      en: "The member was not found in this organization.",
    },
  });
}
