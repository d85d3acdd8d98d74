// `npm run docs`: writes the reference pages made from the code (docs/errors.md from the error
// registry, docs/configuration.md from the configuration schema, docs/timeline.md from the
// settlement timeline's table, docs/roles.md from the role matrix, docs/pricing.md from the price
// book's sources), and the API worker's table of operations (dev/operations-table.ts). Tests fail
// when the committed files and the code disagree, so they cannot drift.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defaultOf, factsOf, LIVE_REQUIRED, VARIABLE_NAMES } from "../lib/kernel/config";
import { ERRORS, type ErrorDefinition, type RetryAfter } from "../lib/kernel/errors/registry";
import {
  BRIDGE_OUTCOMES,
  CIRCLE_OUTCOMES,
  EXCHANGE_OUTCOMES,
  type LegOutcome,
  PRICE_SOURCES,
  type PriceSource,
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
    "(`[env.production.vars]`); secrets with `wrangler secret put NAME --env production`. The pages worker",
    "(`wrangler.pages.toml`, the dashboard and the miniapp) reads the same variables: each is set on both workers.",
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

function pricingPage(): string {
  const sources = Object.keys(PRICE_SOURCES) as PriceSource[];
  return [
    "# The price book",
    "",
    "<!-- Made by `npm run docs` from lib/settlement/pricing/book/sources.ts: edit the table, not this page. -->",
    "",
    "A settlement quote needs three outside prices: Circle's CCTP fees, the aggregator's route and",
    "Mento's rate. Asking the vendors for each quote would make a quote as slow as three network calls",
    "and spend LI.FI's rate limit on partners quoting at every keystroke. The service keeps them in a",
    "book instead (`price_book` in Postgres, and a copy in each isolate), and a quote reads them from it.",
    "",
    "| source | maximum age | what is asked |",
    "| --- | --- | --- |",
    ...sources.map(
      (source) =>
        `| \`${source}\` | ${PRICE_SOURCES[source].maxAgeMs / 1000} s | ${cell(PRICE_SOURCES[source].asks)} |`,
    ),
    "",
    "- **Fresh enough.** A quote uses an entry younger than its source's maximum age: the isolate's copy,",
    "  else the shared book. The copy is never kept longer than the book's own bound.",
    "- **One refresh at a time.** When no fresh entry exists, the first caller takes the entry's lease",
    "  (two provider timeouts) and asks the vendor. Callers in the same isolate wait on that one read;",
    "  callers elsewhere poll the row until the answer lands, and a lease whose holder died lapses.",
    "- **The vendors' limits.** Refreshes go through the service's shared budgets, with `LIFI_API_KEY`",
    "  sent when set:",
    "  - the route's have a LI.FI budget of their own (`LIFI_QUOTE_CALLS_PER_MINUTE`, 30), so orders'",
    "    status polls (`LIFI_CALLS_PER_MINUTE`, 60) never leave quotes unpriced; together they stay",
    "    within the key's limit;",
    "  - Circle's fees share `IRIS_CALLS_PER_SECOND` with the orders' polls.",
    "",
    "  A 429 blocks every caller of that budget until its reset. While blocked, a quote that needs a",
    "  refresh is 503 `PROVIDER_UNAVAILABLE` with `Retry-After`, and quotes whose entries are fresh go on.",
    "- **Definite refusals are kept** for the same maximum age: no route, Mento's trading limits, a",
    "  halted pool. A source that does not answer is never kept: the next quote asks again.",
    "- **Amounts on a grid.** The route's and Mento's prices depend on the amount, so each is priced at",
    "  1, 2 and 5 × 10^k atomic units. An amount between two of them is priced from both neighbours,",
    "  scaled to the amount, and the lesser of the two is taken, rounded down:",
    "  - a route with a fixed cost is understated by scaling up from the lower neighbour;",
    "  - a pool with price impact is understated by scaling down from the upper one;",
    "  - a linear price (the local vendors') gives the exact figure either way.",
    "",
    "  A partner typing 10, 10.5 … 19.5 USDC is served by three route entries",
    "  (`tests/settlement/price-book.chains.test.ts`).",
    "- **Mento's trading limits.** A Mento entry keeps, beside the rate, the most USDm the Broker's",
    "  trading limits take now. This is the headroom of every enabled limit (L0, L1, LG) of both tokens,",
    "  replayed from `tradingLimitsConfig`/`tradingLimitsState` at the block's time. A larger amount is",
    "  `MENTO_CAPACITY_EXCEEDED`.",
    "- **The cron** refreshes the entries a quote asked for in the last ten minutes once they pass half",
    "  their maximum age, so the first quote after a quiet spell finds them fresh. Entries no quote",
    "  asked for in a day are dropped.",
    "- **Nothing binding rests on the book alone.** Order creation prices the route again from entries",
    "  no older than their maximum ages (a quote lives 60 s, longer than any of them), and refuses an",
    "  order more than 4% short of the quote (`SLIPPAGE_LIMIT_EXCEEDED`). The legs that move money ask",
    "  the vendors themselves, each transaction bounded by its own minimum out: the aggregator's",
    "  route when it is sent, Mento's `getAmountOut` at the swap. A quote's figures are therefore at",
    "  most these ages old, and the delivery floor `copAmountMin` is enforced on chain.",
    "",
    "`npm run bench` prints how many aggregator calls 1,000 quotes in a minute made, against the",
    "refreshes the book allows.",
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
    "docs/pricing.md": pricingPage(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, text] of Object.entries(referencePages())) {
    writeFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), text);
    console.log(`wrote ${path}`);
  }
  const { operationsTable, OPERATIONS_DIR } = await import("./operations-table");
  const directory = fileURLToPath(new URL(`../${OPERATIONS_DIR}`, import.meta.url));
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory);
  for (const [path, text] of Object.entries(await operationsTable())) {
    writeFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), text);
    console.log(`wrote ${path}`);
  }
}
