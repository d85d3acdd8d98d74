import { and, asc, eq, gt } from "drizzle-orm";
import { auditEvents } from "../../schema";
import { maskedEmail } from "../identity/identity-input";
import type { IdentityServices } from "../identity/ports";
import { ApiError } from "../kernel/errors/api-error";
import { escapeHtml } from "../kernel/html-text";
import { ProviderFailure } from "../kernel/provider-failure";
import { addMember, type OrganizationMember } from "../tenancy/members";

const HOUR_MS = 60 * 60_000;

import type { MemberRole } from "../tenancy/roles";
import type { DashboardMember } from "./sessions";

/**
 * An owner or admin invites someone by email with a role: the membership exists at once (signing in
 * by emailed code proves the email is theirs, so no acceptance step is needed), and an email tells
 * them where to sign in. The email goes out after the commit as `mailing`, which never rejects.
 * Inviting an active member again changes nothing and sends nothing.
 */
export async function inviteMember(
  ctx: IdentityServices,
  by: DashboardMember,
  input: { email: string; role: MemberRole; signInUrl: string },
): Promise<{ member: OrganizationMember; created: boolean; mailing: Promise<void> }> {
  await assertInvitationsLeft(ctx, by.organizationId);
  const { member, created } = await addMember(ctx, by.organizationId, input, by);
  const mailing = created
    ? mailInvitation(ctx, member.email, {
        ...input,
        organizationName: by.organizationName,
        invitedBy: by.email,
      })
    : Promise.resolve();
  return { member, created, mailing };
}

/**
 * Invitations send the service's email to any address a member types: at most 20 an hour per
 * organization (counted from the audit log's members added from the dashboard), so the dashboard
 * is no way to mail strangers in bulk. A soft cap: two invitations at once may both pass the 20th.
 */
export const INVITATIONS_PER_HOUR = 20;

async function assertInvitationsLeft(ctx: IdentityServices, organizationId: string): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - HOUR_MS);
  const recent = await ctx.db
    .select({ at: auditEvents.at })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.organizationId, organizationId),
        eq(auditEvents.action, "member.added"),
        eq(auditEvents.actorType, "member"),
        gt(auditEvents.at, since),
      ),
    )
    .orderBy(asc(auditEvents.at))
    .limit(INVITATIONS_PER_HOUR);
  const oldest = recent[0];
  if (recent.length >= INVITATIONS_PER_HOUR && oldest) {
    throw new ApiError("RATE_LIMITED", {
      retryAfterSeconds: Math.max(1, (oldest.at.getTime() + HOUR_MS - ctx.clock.now().getTime()) / 1000),
    });
  }
}

async function mailInvitation(
  ctx: IdentityServices,
  to: string,
  facts: { role: MemberRole; signInUrl: string; organizationName: string; invitedBy: string },
): Promise<void> {
  const sender = ctx.providers.identity.email;
  if (!sender) {
    ctx.log.warn("dashboard invitation not sent: no email provider", { to: maskedEmail(to) });
    return;
  }
  try {
    const { id } = await sender.send({ to, ...invitationEmail(facts) });
    ctx.log.info("dashboard invitation sent", { to: maskedEmail(to), emailId: id });
  } catch (error) {
    ctx.log.error("dashboard invitation email failed", {
      to: maskedEmail(to),
      reason: error instanceof ProviderFailure ? error.message : "unexpected failure",
    });
  }
}

/**
 * Spanish first, English below; the organization's name (the partner's text) and the inviter's email
 * go into the HTML as text, never as markup.
 */
function invitationEmail(facts: {
  role: MemberRole;
  signInUrl: string;
  organizationName: string;
  invitedBy: string;
}): { subject: string; text: string; html: string } {
  const { role, signInUrl, organizationName, invitedBy } = facts;
  const text = [
    `${invitedBy} te invitó al panel de socios COPm de ${organizationName} con el rol ${role}.`,
    `Entra con este correo en ${signInUrl}: te enviaremos un código.`,
    "",
    `${invitedBy} invited you to ${organizationName}'s COPm partner dashboard as ${role}.`,
    `Sign in with this email at ${signInUrl}: we will send you a code.`,
  ].join("\n");
  const [who, where, url] = [invitedBy, organizationName, signInUrl].map(escapeHtml);
  const html = [
    `<p>${who} te invitó al panel de socios COPm de <strong>${where}</strong> con el rol <strong>${role}</strong>.</p>`,
    `<p>Entra con este correo en <a href="${url}">${url}</a>: te enviaremos un código.</p>`,
    `<p lang="en">${who} invited you to ${where}'s COPm partner dashboard as ${role}. Sign in with this email at ${url}: we will send you a code.</p>`,
  ].join("\n");
  return { subject: `Te invitaron a ${organizationName} en COPm`, text, html };
}
