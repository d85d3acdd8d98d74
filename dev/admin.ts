// `npm run admin -- <command>`: the operator's wrapper of the admin API, against a running server.
// API_URL (default http://127.0.0.1:8787) and ADMIN_TOKEN (default: the local one) choose which.
import { LOCAL_ADMIN_TOKEN } from "./local-defaults";

const USAGE = `usage: npm run admin -- <command>

  create-org <name>                         organization + first integration + API key (shown once)
  list-orgs [limit] [after]                 organizations, oldest first
  get-org <organizationId>                  an organization and its integrations
  set <organizationId> <setting=value>...   intakePaused, burnPlanEnabled, serviceFeeBps,
                                            settlementAccountActive, name
  create-integration <organizationId> <name>
  issue-key <integrationId> [name]          a new API key (shown once)
  list-keys <integrationId>
  revoke-key <integrationId> <keyId>
  expire-key <integrationId> <keyId> <when>
                                            the key stops working at <when> (ISO date-time, in the
                                            future); never: it no longer expires
  add-member <organizationId> <email>       a dashboard member (the same email again: the existing one)
  list-members <organizationId>             members, oldest first (revoked ones with revokedAt)
  revoke-member <organizationId> <memberId>

environment: API_URL (default http://127.0.0.1:8787), ADMIN_TOKEN (default the local one)`;

const apiUrl = (process.env.API_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
const token = process.env.ADMIN_TOKEN || LOCAL_ADMIN_TOKEN;
const [command, ...args] = process.argv.slice(2);

function need(value: string | undefined, what: string): string {
  if (!value) {
    console.error(`missing ${what}\n\n${USAGE}`);
    process.exit(2);
  }
  return value;
}

function settingsFrom(pairs: string[]): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const pair of pairs) {
    const [key, value] = pair.split("=", 2);
    if (!key || value === undefined) need(undefined, `setting=value, got ${pair}`);
    settings[key as string] =
      value === "true"
        ? true
        : value === "false"
          ? false
          : /^\d+$/.test(value as string)
            ? Number(value)
            : value;
  }
  return settings;
}

function plan(): { method: string; path: string; body?: unknown } {
  switch (command) {
    case "create-org":
      return { method: "POST", path: "/admin/organizations", body: { name: need(args.join(" "), "name") } };
    case "list-orgs": {
      const query = new URLSearchParams();
      if (args[0]) query.set("limit", args[0]);
      if (args[1]) query.set("after", args[1]);
      return { method: "GET", path: `/admin/organizations?${query}` };
    }
    case "get-org":
      return { method: "GET", path: `/admin/organizations/${need(args[0], "organizationId")}` };
    case "set":
      return {
        method: "PATCH",
        path: `/admin/organizations/${need(args[0], "organizationId")}`,
        body: settingsFrom(args.slice(1)),
      };
    case "create-integration":
      return {
        method: "POST",
        path: `/admin/organizations/${need(args[0], "organizationId")}/integrations`,
        body: { name: need(args.slice(1).join(" "), "name") },
      };
    case "issue-key":
      return {
        method: "POST",
        path: `/admin/integrations/${need(args[0], "integrationId")}/keys`,
        body: args[1] ? { name: args.slice(1).join(" ") } : {},
      };
    case "list-keys":
      return { method: "GET", path: `/admin/integrations/${need(args[0], "integrationId")}/keys` };
    case "revoke-key":
      return {
        method: "DELETE",
        path: `/admin/integrations/${need(args[0], "integrationId")}/keys/${need(args[1], "keyId")}`,
      };
    case "expire-key": {
      const when = need(args[2], "when (an ISO date-time, or never)");
      return {
        method: "PATCH",
        path: `/admin/integrations/${need(args[0], "integrationId")}/keys/${need(args[1], "keyId")}`,
        body: { expiresAt: when === "never" ? null : when },
      };
    }
    case "add-member":
      return {
        method: "POST",
        path: `/admin/organizations/${need(args[0], "organizationId")}/members`,
        body: { email: need(args[1], "email") },
      };
    case "list-members":
      return { method: "GET", path: `/admin/organizations/${need(args[0], "organizationId")}/members` };
    case "revoke-member":
      return {
        method: "DELETE",
        path: `/admin/organizations/${need(args[0], "organizationId")}/members/${need(args[1], "memberId")}`,
      };
    default:
      console.error(USAGE);
      process.exit(command ? 2 : 0);
  }
}

const { method, path, body } = plan();
try {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "accept-language": "en",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  console.log(text ? JSON.stringify(JSON.parse(text), null, 2) : `HTTP ${response.status}`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  console.error(
    `could not reach ${apiUrl}: ${error instanceof Error ? error.message : error} (is npm run dev running?)`,
  );
  process.exit(1);
}
