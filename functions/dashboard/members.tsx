import type { OpenAPIHono } from "@hono/zod-openapi";
import { inviteMember } from "../../lib/dashboard/invite";
import { resetTwoFactor } from "../../lib/dashboard/two-factor";
import { afterResponse } from "../../lib/http/after-response";
import {
  DASHBOARD_PATH,
  type DashboardContext,
  formField,
  member,
  memberMay,
  requirePermission,
  SIGN_IN_PATH,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { isEmail } from "../../lib/identity/identity-input";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import {
  changeMemberRole,
  listMembers,
  type OrganizationMember,
  revokeMember,
} from "../../lib/tenancy/members";
import { isMemberRole, MEMBER_ROLES, type MemberRole, mayManage } from "../../lib/tenancy/roles";
import { Card } from "./card";
import { DataTable } from "./data-table";
import { DoneNote, ErrorNote } from "./feedback";
import { Time } from "./format";
import { CsrfField, renderPage } from "./layout";
import { type MembersText, TEXT } from "./members-text";
import { PostButton } from "./post-button";
import { fill } from "./texts";

export const MEMBERS_PATH = `${DASHBOARD_PATH}/members`;

/** What the page says after an action it redirected from (`?done=`). */
const DONE = { role: "doneRole", removed: "doneRemoved", reset: "doneReset" } as const;

/**
 * The organization's members (owners and admins): GET lists them with their roles and two-factor
 * state; POST invites by email with a role; POST …/{memberId}/role, …/remove and …/reset-two-factor
 * change one. The domain verbs check the role matrix (an admin never touches an owner) and keep the
 * last owner; a member of another organization is not found.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(MEMBERS_PATH, requirePermission("members:read"), async (c) => {
    const done = DONE[c.req.query("done") as keyof typeof DONE];
    return membersPage(c, { done: done ? text(c)[done] : undefined });
  });

  app.post(MEMBERS_PATH, requirePermission("members:write"), async (c) => {
    const email = (await formField(c, "email")).trim();
    const role = await formField(c, "role");
    try {
      if (!isEmail(email)) throw new ApiError("INVALID_EMAIL");
      if (!isMemberRole(role)) throw badRole();
      // The service's own address, never the request's Host: the email must not point elsewhere.
      const signInUrl = new URL(SIGN_IN_PATH, c.get("services").config.PUBLIC_URL).toString();
      const invited = await inviteMember(c.get("services"), member(c), { email, role, signInUrl });
      afterResponse(c, invited.mailing);
      const t = text(c);
      return membersPage(c, {
        done: fill(invited.created ? t.doneInvited : t.doneAlready, { email: invited.member.email }),
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return membersPage(c, { error, email, role });
    }
  });

  app.post(`${MEMBERS_PATH}/:memberId/role`, requirePermission("members:write"), async (c) => {
    const role = await formField(c, "role");
    if (!isMemberRole(role)) throw badRole();
    await changeMemberRole(
      c.get("services"),
      member(c).organizationId,
      c.req.param("memberId"),
      role,
      member(c),
    );
    return c.redirect(`${MEMBERS_PATH}?done=role`, 303);
  });

  app.post(`${MEMBERS_PATH}/:memberId/remove`, requirePermission("members:write"), async (c) => {
    await revokeMember(c.get("services"), member(c).organizationId, c.req.param("memberId"), member(c));
    return c.redirect(`${MEMBERS_PATH}?done=removed`, 303);
  });

  app.post(`${MEMBERS_PATH}/:memberId/reset-two-factor`, requirePermission("members:write"), async (c) => {
    await resetTwoFactor(c.get("services"), member(c).organizationId, c.req.param("memberId"), member(c));
    return c.redirect(`${MEMBERS_PATH}?done=reset`, 303);
  });
}

function text(c: DashboardContext): MembersText {
  return TEXT[c.get("dashboard").language];
}

function badRole(): ApiError {
  return new ApiError("INVALID_REQUEST", {
    problems: [
      { field: "role", code: "INVALID_REQUEST", problem: `must be one of ${MEMBER_ROLES.join(", ")}` },
    ],
  });
}

async function membersPage(
  c: DashboardContext,
  props: { done?: string; error?: ApiError; email?: string; role?: string },
) {
  const t = text(c);
  const me = member(c);
  const rows = (await listMembers(c.get("services"), me.organizationId)).filter((row) => !row.revokedAt);
  const canWrite = memberMay(c, "members:write");
  return renderPage(c, {
    title: t.title,
    section: "members",
    children: (
      <>
        <p>{t.intro}</p>
        <DoneNote text={props.done} />
        <ErrorNote c={c} error={props.error} />
        {canWrite ? (
          <Card id="invite-title" title={t.inviteTitle}>
            <form method="post" action={MEMBERS_PATH} class="filters">
              <CsrfField c={c} />
              <div>
                <label for="invite-email">{t.email}</label>
                <input id="invite-email" name="email" type="email" required value={props.email ?? ""} />
              </div>
              <div>
                <label for="invite-role">{t.role}</label>
                <RoleSelect id="invite-role" t={t} chosen={props.role ?? "developer"} actor={me.role} />
              </div>
              <div class="actions">
                <button type="submit">{t.invite}</button>
              </div>
            </form>
          </Card>
        ) : null}
        <Card id="members-title" title={t.listTitle}>
          <DataTable
            labelledBy="members-title"
            rows={rows}
            rowAttributes={(row) => ({ "data-member-id": row.id, "data-role": row.role })}
            columns={[
              {
                head: t.email,
                kind: "name",
                cell: (row) => `${row.email}${row.id === me.memberId ? ` ${t.you}` : ""}`,
              },
              { head: t.role, cell: (row) => t.roles[row.role] },
              { head: t.twoFactor, cell: (row) => (row.totpEnabledAt ? t.on : t.off) },
              { head: t.added, cell: (row) => <Time at={row.createdAt} /> },
              {
                head: t.actions,
                cell: (row) => (canWrite ? <MemberActions c={c} t={t} row={row} actor={me.role} /> : null),
              },
            ]}
          />
        </Card>
      </>
    ),
  });
}

/** What the acting member may do to this one: only what the role matrix lets them. */
function MemberActions(props: {
  c: DashboardContext;
  t: MembersText;
  row: OrganizationMember;
  actor: MemberRole;
}) {
  const { c, t, row, actor } = props;
  if (!mayManage(actor, row.role)) return null;
  const base = `${MEMBERS_PATH}/${row.id}`;
  return (
    <div class="actions">
      <form method="post" action={`${base}/role`}>
        <CsrfField c={c} />
        <RoleSelect
          id={`role-${row.id}`}
          t={t}
          chosen={row.role}
          actor={actor}
          label={`${t.role}: ${row.email}`}
        />
        <button type="submit" class="secondary">
          {t.changeRole}
        </button>
      </form>
      {/* One's own two-factor is turned off on the Security page, with a code. */}
      {row.totpEnabledAt && row.id !== member(c).memberId ? (
        <PostButton
          c={c}
          action={`${base}/reset-two-factor`}
          variant="secondary"
          confirm={`${t.resetTwoFactor}: ${row.email}?`}
        >
          {t.resetTwoFactor}
        </PostButton>
      ) : null}
      <PostButton c={c} action={`${base}/remove`} variant="danger" confirm={`${t.remove}: ${row.email}?`}>
        {t.remove}
      </PostButton>
    </div>
  );
}

/** The roles the acting member may grant: an admin never grants owner. */
function RoleSelect(props: {
  id: string;
  t: MembersText;
  chosen: string;
  actor: MemberRole;
  label?: string;
}) {
  return (
    <select id={props.id} name="role" aria-label={props.label}>
      {MEMBER_ROLES.filter((role) => mayManage(props.actor, "viewer", role)).map((role) => (
        <option value={role} selected={role === props.chosen}>
          {props.t.roles[role]}
        </option>
      ))}
    </select>
  );
}
