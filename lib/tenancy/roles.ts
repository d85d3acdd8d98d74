/**
 * Dashboard roles (docs/roles.md, made from this file by `npm run docs`). A member has one role in
 * their organization; each permission names the roles that hold it, so the matrix is one table and
 * adding a permission or a role fails to compile until every row says who has it.
 */
export const MEMBER_ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const ROLE_DESCRIPTIONS: Record<MemberRole, string> = {
  owner: "Everything, including the organization's security settings and other owners.",
  admin: "Everything but the security settings; manages members, but not owners.",
  developer: "Builds the integration: keys, webhooks, request logs and the sandbox; sees the activity.",
  viewer: "Reads the activity and downloads statements; changes nothing.",
};

export const PERMISSION_TABLE = {
  "activity:read": {
    roles: ["owner", "admin", "developer", "viewer"],
    about: "See the overview, settlement orders, payouts, swaps and the webhook endpoint and deliveries.",
  },
  "keys:read": {
    roles: ["owner", "admin", "developer"],
    about: "See the API keys (prefix, scopes, allowed IPs, expiry; never a secret).",
  },
  "keys:write": {
    roles: ["owner", "admin", "developer"],
    about: "Issue API keys, change their expiry and revoke them.",
  },
  "webhooks:write": {
    roles: ["owner", "admin", "developer"],
    about: "Set, test and delete the webhook endpoint, rotate its secret, replay events.",
  },
  "statements:read": {
    roles: ["owner", "admin", "viewer"],
    about: "See and download statements (the organization's money in and out).",
  },
  "request_logs:read": {
    roles: ["owner", "admin", "developer"],
    about: "Search the API request logs of the last 7 days (bodies redacted).",
  },
  "sandbox:write": {
    roles: ["owner", "admin", "developer"],
    about: "Test mode only: fund addresses from the sandbox faucet.",
  },
  "audit:read": {
    roles: ["owner", "admin"],
    about: "Read the audit log of changes.",
  },
  "members:read": {
    roles: ["owner", "admin"],
    about: "See the members, their roles and whether they use two-factor sign-in.",
  },
  "members:write": {
    roles: ["owner", "admin"],
    about:
      "Invite members by email, change their roles, remove them and reset their two-factor sign-in; an admin neither grants the owner role nor changes or removes an owner.",
  },
  "security:write": {
    roles: ["owner"],
    about: "Require two-factor sign-in of every member.",
  },
} as const satisfies Record<string, { roles: readonly MemberRole[]; about: string }>;

export type Permission = keyof typeof PERMISSION_TABLE;
export const PERMISSIONS = Object.keys(PERMISSION_TABLE) as [Permission, ...Permission[]];

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === "string" && (MEMBER_ROLES as readonly string[]).includes(value);
}

export function roleMay(role: MemberRole, permission: Permission): boolean {
  return (PERMISSION_TABLE[permission].roles as readonly MemberRole[]).includes(role);
}

/**
 * Whether a member acting with `actorRole` may change a member whose role is `currentRole` (to
 * `nextRole`, or remove them when it is undefined): owners may do anything; admins may manage every
 * member but owners, and grant any role but owner. The operator (admin API) is not a member and may
 * do anything; the last owner is protected for everyone, elsewhere (lib/tenancy/members.ts).
 */
export function mayManage(actorRole: MemberRole, currentRole: MemberRole, nextRole?: MemberRole): boolean {
  if (!roleMay(actorRole, "members:write")) return false;
  if (actorRole === "owner") return true;
  return currentRole !== "owner" && nextRole !== "owner";
}
