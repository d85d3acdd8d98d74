// `npm run docs`: writes the reference pages made from the code (docs/errors.md from the error
// registry, docs/configuration.md from the configuration schema, docs/timeline.md from the
// settlement timeline's table, docs/roles.md from the role matrix). A test fails when the committed
// pages and the code disagree, so they cannot drift.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defaultOf, factsOf, LIVE_REQUIRED, VARIABLE_NAMES } from "../lib/kernel/config";
import { ERRORS, type ErrorDefinition, type RetryAfter } from "../lib/kernel/errors/registry";
import {
  BRIDGE_OUTCOMES,
  CIRCLE_OUTCOMES,
  EXCHANGE_OUTCOMES,
  type LegOutcome,
  RETURN_ROUTE_OUTCOMES,
  TIMELINE,
} from "../lib/settlement";
import {
  MEMBER_ROLES,
  PERMISSION_TABLE,
  PERMISSIONS,
  ROLE_DESCRIPTIONS,
  roleMay,
} from "../lib/tenancy/roles";

const cell = (text: string) => text.replaceAll("|", "\\|");

const RETRY_AFTER_WORDS: Record<RetryAfter, string> = { always: "always", "when-known": "when known" };

function errorsPage(): string {
  const rows = Object.entries(ERRORS).map(([code, entry]) => {
    const d: ErrorDefinition = entry;
    const retryAfter = d.retryAfter === undefined ? "" : RETRY_AFTER_WORDS[d.retryAfter];
    return `| \`${code}\` | ${d.status} | ${d.retryable} | \`${d.nextAction}\` | ${retryAfter} | ${cell(d.message.en)} | ${cell(d.message.es)} |`;
  });
  return [
    "# Errors",
    "",
    "<!-- Made by `npm run docs` from lib/kernel/errors/registry.ts: edit the registry, not this page. -->",
    "",
    "Every error answers the one body `{ error: { code, message, stage, fundsStatus, fundsMoved, retryable,",
    "nextAction, requestId?, problems?, … } }`, with `message` in the caller's language (`Accept-Language`,",
    "Spanish by default). A missing or invalid API key is the exception the specification fixes: 401 with",
    "`{ error: <string> }`. Each code has one status, retryability and next action, and says whether its",
    "answer carries `Retry-After` (whole seconds): always, or only when the service knows how long (a",
    "provider said so):",
    "",
    "| code | HTTP | retryable | nextAction | Retry-After | message (en) | message (es) |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

function configurationPage(): string {
  const required = new Set<string>(LIVE_REQUIRED);
  const rows = VARIABLE_NAMES.map((name) => {
    const v = factsOf(name);
    const fallback = defaultOf(name);
    const shown =
      fallback === undefined
        ? ""
        : `\`${typeof fallback === "string" ? fallback : JSON.stringify(fallback)}\``;
    const where = required.has(name) ? "required in live mode" : v.only ? `${v.only} only` : "";
    return `| \`${name}\` | ${shown} | ${where} | ${v.secret ? "yes" : ""} | ${cell(v.about)} |`;
  });
  return [
    "# Configuration",
    "",
    "<!-- Made by `npm run docs` from lib/kernel/config/variables.ts: edit the list, not this page. -->",
    "",
    "Every variable the service reads is listed and parsed in `lib/kernel/config/`; a variable that does not parse makes",
    "every request answer 500 naming it (never its value). Plain variables go in `wrangler.toml`",
    "(`[env.production.vars]`); secrets with `wrangler secret put NAME --env production`.",
    "",
    "| variable | default | where | secret | what for |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

/** A detail schema's fields, an optional one marked `?`. */
function fieldsOf(schema: z.ZodType): string {
  if (!(schema instanceof z.ZodObject)) return "";
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(
    ([name, field]) => `\`${name}${field instanceof z.ZodOptional ? "?" : ""}\``,
  );
  return fields.join(", ");
}

function timelinePage(): string {
  const rows = Object.entries(TIMELINE).map(([kind, d]) => {
    const moves = d.moves ? `\`${d.moves.status}\` / \`${d.moves.fundsStatus}\`` : "stays";
    const legs = d.receipt.map((leg) => `\`${leg}\``).join(", ");
    const webhook = d.webhook ? `\`${d.webhook}\`` : "";
    return `| \`${kind}\` | ${moves} | ${webhook} | ${legs} | ${fieldsOf(d.detail)} | ${d.publicReason ? "yes" : ""} | ${cell(d.label.en)} | ${cell(d.label.es)} |`;
  });
  return [
    "# Settlement timeline",
    "",
    "<!-- Made by `npm run docs` from lib/settlement/timeline.ts: edit the table, not this page. -->",
    "",
    "Every entry of an order's `timeline` (`GET /api/integrations/settlements/orders/{orderId}`) has one",
    "of these kinds. A kind that moves the order puts it in one status and funds status; a note leaves",
    "it where it is. The webhook is sent when the entry changes the order's status (`STUCK` and",
    "`CHAIN_RESET` change its health, and always send theirs). The receipt legs are the ones the entry",
    "opens, fills or closes; the detail fields are what the service records with it (kept internal:",
    "partners read `reason` only where the table says so, a provider's published code). Labels are",
    "what the dashboard shows.",
    "",
    "| kind | moves to (status / funds) | webhook | receipt legs | detail | public reason | label (en) | label (es) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

/** Each leg's table of outcomes: what its vendor can report, what the service does, where the order ends. */
const LEG_OUTCOMES: Array<{ leg: string; vendor: string; outcomes: Record<string, LegOutcome> }> = [
  {
    leg: "Circle (BURNED → ATTESTED → MINTED)",
    vendor: "Circle, Iris `GET /v2/messages` and the forwarded mint on the intermediate chain",
    outcomes: CIRCLE_OUTCOMES,
  },
  {
    leg: "The route (MINTED → ROUTING → ROUTED)",
    vendor: "the aggregator, LI.FI `GET /v1/status`",
    outcomes: BRIDGE_OUTCOMES,
  },
  {
    leg: "The exchange (ROUTED → EXCHANGED)",
    vendor: "Mento's Broker and BiPoolManager on the destination chain",
    outcomes: EXCHANGE_OUTCOMES,
  },
  {
    leg: "The way back (ROUTED → RETURNING → RETURNED, for a return from the destination chain)",
    vendor: "the aggregator, LI.FI `GET /v1/status` of the way back",
    outcomes: RETURN_ROUTE_OUTCOMES,
  },
];

function outcomesPage(): string {
  const sections = LEG_OUTCOMES.flatMap(({ leg, vendor, outcomes }) => [
    `## ${leg}`,
    "",
    `What ${vendor} can report, and what the service does with it:`,
    "",
    "| outcome | reported as | the service | the order ends |",
    "| --- | --- | --- | --- |",
    ...Object.entries(outcomes).map(
      ([name, o]) => `| \`${name}\` | ${cell(o.reported)} | ${cell(o.does)} | ${cell(o.endsIn)} |`,
    ),
    "",
  ]);
  return [
    "# Settlement outcomes",
    "",
    "<!-- Made by `npm run docs` from the tables the legs run (lib/settlement/legs): edit them, not this page. -->",
    "",
    "For every leg, each outcome its vendor can report, what the service does and where the order ends.",
    "No row ends in a wait without a deadline: a leg past its deadline (docs/settlement.md, the leg deadlines)",
    "makes the order `STUCK`, which alerts the operator and keeps the order observed, so a late vendor",
    "answer still moves it on. The route's and the exchange's tables are the ones the legs run; the others",
    "are kept beside the branches that handle each row. The delivery and the return's CCTP leg are in",
    "docs/settlement.md.",
    "",
    ...sections,
  ].join("\n");
}

/** The pages, by their path from the repository's root. */
function rolesPage(): string {
  const head = `| permission | ${MEMBER_ROLES.join(" | ")} | what it allows |`;
  const rule = `| --- | ${MEMBER_ROLES.map(() => "---").join(" | ")} | --- |`;
  const rows = PERMISSIONS.map((permission) => {
    const marks = MEMBER_ROLES.map((role) => (roleMay(role, permission) ? "✓" : "–")).join(" | ");
    return `| \`${permission}\` | ${marks} | ${cell(PERMISSION_TABLE[permission].about)} |`;
  });
  return [
    "# Dashboard roles",
    "",
    "<!-- Made by `npm run docs` from lib/tenancy/roles.ts: edit the table, not this page. -->",
    "",
    "Every dashboard member has one role in their organization. The operator's admin API adds members",
    "(as `owner` unless it names another role); owners and admins invite the rest by email from the",
    "dashboard's Members page. A page or action outside the member's role answers 403",
    "`INSUFFICIENT_ROLE` and does nothing; the navigation shows only what the role may open. The role is",
    "read with the session on every request, so a change holds at the member's next click. The",
    "organization always keeps one active owner: removing or demoting the last one is 409 `LAST_OWNER`",
    "(changes to an organization's members take turns on its row). Every change is in the audit log.",
    "",
    ...MEMBER_ROLES.map((role) => `- **${role}**: ${ROLE_DESCRIPTIONS[role]}`),
    "",
    head,
    rule,
    ...rows,
    "",
    'Two-factor sign-in (docs/tenancy.md, "Two-factor sign-in") is every member\'s own setting; only',
    "`security:write` requires it of the whole organization.",
    "",
  ].join("\n");
}

export function referencePages(): Record<string, string> {
  return {
    "docs/errors.md": errorsPage(),
    "docs/configuration.md": configurationPage(),
    "docs/timeline.md": timelinePage(),
    "docs/outcomes.md": outcomesPage(),
    "docs/roles.md": rolesPage(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, text] of Object.entries(referencePages())) {
    writeFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), text);
    console.log(`wrote ${path}`);
  }
}
