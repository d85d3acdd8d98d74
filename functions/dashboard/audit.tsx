import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  type AUDIT_ACTION_TABLE,
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditActorType,
} from "../../lib/audit/actions";
import { AUDIT_PAGE_LIMIT, type AuditEventRow, type AuditQuery, listAuditEvents } from "../../lib/audit/list";
import { DASHBOARD_PATH, type DashboardContext, member } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { isStorableInstant } from "../../lib/kernel/clock";
import { ApiError, type Problem } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import { type Column, DataTable } from "./data-table";
import { ErrorNote } from "./feedback";
import { type IntegrationScope, integrationScope } from "./integration";
import { dashboardHref, renderPage } from "./layout";
import { notFoundPage } from "./not-found";
import { commonText } from "./texts";

const AUDIT_PATH = `${DASHBOARD_PATH}/audit`;

/** Entries per page when the address names no `limit` (the API's own default is 50 too, at most 200). */
const PAGE_SIZE = 50;

/** Every action's label: an action added to AUDIT_ACTION_TABLE fails to compile until it has both. */
const ACTION_LABELS = {
  es: {
    "organization.updated": "Ajustes de la organización cambiados",
    "api_key.issued": "Llave de API emitida",
    "api_key.updated": "Llave de API cambiada",
    "api_key.revoked": "Llave de API revocada",
    "member.added": "Miembro agregado",
    "member.revoked": "Miembro revocado",
    "webhook_endpoint.set": "Endpoint de webhooks configurado",
    "webhook_endpoint.deleted": "Endpoint de webhooks eliminado",
    "webhook_endpoint.secret_rotated": "Secreto de webhooks rotado",
  },
  en: {
    "organization.updated": "Organization settings changed",
    "api_key.issued": "API key issued",
    "api_key.updated": "API key changed",
    "api_key.revoked": "API key revoked",
    "member.added": "Member added",
    "member.revoked": "Member revoked",
    "webhook_endpoint.set": "Webhook endpoint set",
    "webhook_endpoint.deleted": "Webhook endpoint deleted",
    "webhook_endpoint.secret_rotated": "Webhook secret rotated",
  },
} as const satisfies Record<Language, Record<AuditAction, string>>;

const ACTOR_LABELS = {
  es: { member: "Miembro", operator: "Operador", api_key: "Llave de API", service: "El servicio" },
  en: { member: "Member", operator: "Operator", api_key: "API key", service: "The service" },
} as const satisfies Record<Language, Record<AuditActorType, string>>;

type AuditTarget = (typeof AUDIT_ACTION_TABLE)[AuditAction]["target"];

const TARGET_LABELS = {
  es: {
    organization: "Organización",
    api_key: "Llave de API",
    member: "Miembro",
    webhook_endpoint: "Endpoint de webhooks",
  },
  en: {
    organization: "Organization",
    api_key: "API key",
    member: "Member",
    webhook_endpoint: "Webhook endpoint",
  },
} as const satisfies Record<Language, Record<AuditTarget, string>>;

const TEXT = {
  es: {
    title: "Registro de auditoría",
    intro:
      "Cada cambio a las llaves de API, los miembros, el endpoint de webhooks y los ajustes de tu organización, del más reciente al más antiguo: quién lo hizo, cuándo, desde qué dirección y qué cambió (nunca un secreto), como lo lista GET /api/integrations/audit-log.",
    everyIntegration: "El registro es de toda la organización: todas sus integraciones a la vez.",
    caption: "Cambios",
    action: "Acción",
    allActions: "Todas",
    from: "Desde (UTC)",
    to: "Hasta (UTC, incluido)",
    at: "Cuándo (UTC)",
    who: "Quién",
    address: "Dirección",
    target: "Sobre",
    changes: "Antes → después",
    noChange: "Ningún campo cambió de valor.",
    none: "No hay cambios registrados con estos filtros.",
    newest: "Los más recientes",
    older: "Más antiguos",
    pages: "Páginas",
    intro400: "Revisa el filtro:",
    badAction: "«Acción» no es una de las acciones de la lista",
    badFrom: "«Desde» debe ser una fecha AAAA-MM-DD que exista",
    badTo: "«Hasta» debe ser una fecha AAAA-MM-DD que exista",
    toBeforeFrom: "«Hasta» no puede ser anterior a «Desde»",
    badLimit: `«limit» debe ser un número entero de 1 a ${AUDIT_PAGE_LIMIT}`,
    badCursor: "el cursor no es de esta lista; vuelve a la primera página",
  },
  en: {
    title: "Audit log",
    intro:
      "Every change to your organization's API keys, members, webhook endpoint and settings, newest first: who made it, when, from which address and what changed (never a secret), as GET /api/integrations/audit-log lists it.",
    everyIntegration: "The log is the whole organization's: every integration at once.",
    caption: "Changes",
    action: "Action",
    allActions: "All",
    from: "From (UTC)",
    to: "To (UTC, included)",
    at: "When (UTC)",
    who: "Who",
    address: "Address",
    target: "Target",
    changes: "Before → after",
    noChange: "No field changed its value.",
    none: "No recorded change matches these filters.",
    newest: "Newest",
    older: "Older",
    pages: "Pages",
    intro400: "Check the filter:",
    badAction: "“Action” is not one of the listed actions",
    badFrom: "“From” must be a date, YYYY-MM-DD, that exists",
    badTo: "“To” must be a date, YYYY-MM-DD, that exists",
    toBeforeFrom: "“To” cannot be before “From”",
    badLimit: `“limit” must be a whole number from 1 to ${AUDIT_PAGE_LIMIT}`,
    badCursor: "the cursor is not one of this list's; go back to the first page",
  },
} as const satisfies Record<Language, Record<string, string>>;

type AuditText = (typeof TEXT)[Language];
type Hint = "badAction" | "badFrom" | "badTo" | "toBeforeFrom" | "badLimit" | "badCursor";

/** The query fields the page reads and carries from page to page, as the address holds them. */
const FIELDS = ["action", "from", "to", "limit", "cursor"] as const;
type Field = (typeof FIELDS)[number];
type Filters = Partial<Record<Field, string>>;

/** A refused filter: the field, and what to say about it. */
interface FieldProblem {
  field: Field;
  hint: Hint;
}

const DAY_MS = 86_400_000;

/**
 * The start of a form date's day in UTC, when it is YYYY-MM-DD naming a real calendar date Postgres
 * can store. Date.parse alone reads far more (31 November rolls over to 1 December; year 0 parses).
 */
function dayStart(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const start = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(start) || !isStorableInstant(new Date(start))) return undefined;
  return new Date(start).toISOString().slice(0, 10) === value ? start : undefined;
}

/**
 * The filters as listAuditEvents takes them: the action one of the table's, `from` that day's start,
 * `to` the start of the day after (both days included, UTC), or the fields that fail.
 */
function auditQuery(
  filters: Filters,
): { ok: true; query: AuditQuery } | { ok: false; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const action = AUDIT_ACTIONS.find((candidate) => candidate === filters.action);
  if (filters.action !== undefined && !action) problems.push({ field: "action", hint: "badAction" });
  const from = filters.from === undefined ? undefined : dayStart(filters.from);
  if (filters.from !== undefined && from === undefined) problems.push({ field: "from", hint: "badFrom" });
  const to = filters.to === undefined ? undefined : dayStart(filters.to);
  if (filters.to !== undefined && to === undefined) problems.push({ field: "to", hint: "badTo" });
  if (from !== undefined && to !== undefined && to < from)
    problems.push({ field: "to", hint: "toBeforeFrom" });
  const limit = filters.limit === undefined ? PAGE_SIZE : Number(filters.limit);
  if (
    !/^\d+$/.test(filters.limit ?? "1") ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > AUDIT_PAGE_LIMIT
  ) {
    problems.push({ field: "limit", hint: "badLimit" });
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    query: {
      limit,
      ...(action ? { action } : {}),
      ...(from === undefined ? {} : { from: new Date(from) }),
      // The day after 9999-12-31 is past what Postgres stores, and nothing is after it anyway.
      ...(to === undefined || !isStorableInstant(new Date(to + DAY_MS)) ? {} : { to: new Date(to + DAY_MS) }),
      ...(filters.cursor ? { cursor: filters.cursor } : {}),
    },
  };
}

/** The 400 the page answers for refused filters: the code's message and each field named, in both languages. */
function refusal(problems: readonly FieldProblem[]): ApiError {
  const detail = (language: Language) =>
    `${TEXT[language].intro400} ${problems.map((problem) => TEXT[language][problem.hint]).join("; ")}.`;
  return new ApiError("INVALID_REQUEST", {
    detail: { es: detail("es"), en: detail("en") },
    problems: problems.map(
      (problem): Problem => ({
        field: `query.${problem.field}`,
        code: "INVALID_REQUEST",
        problem: TEXT.en[problem.hint],
      }),
    ),
  });
}

function filtersOf(c: DashboardContext): Filters {
  const filters: Filters = {};
  for (const field of FIELDS) {
    const value = c.req.query(field)?.trim();
    if (value) filters[field] = value;
  }
  return filters;
}

/**
 * GET /dashboard/audit: the member's organization's audit log, newest first, through the verb the
 * API's GET /api/integrations/audit-log uses, filtered by action and by UTC dates, a page at a time
 * by the list's keyset cursor. Only ever the session's organization: an integration of another one
 * is the 404 page, as on every page.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(AUDIT_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "audit", back: AUDIT_PATH });
    const filters = filtersOf(c);
    const checked = auditQuery(filters);
    if (!checked.ok) {
      c.status(400);
      return auditPage(c, scope, filters, { problems: checked.problems });
    }
    try {
      const page = await listAuditEvents(c.get("services"), member(c).organizationId, checked.query);
      return auditPage(c, scope, filters, { page });
    } catch (error) {
      // The one refusal the verb has: a cursor it did not give.
      if (!(error instanceof ApiError) || error.code !== "INVALID_REQUEST") throw error;
      c.status(400);
      return auditPage(c, scope, filters, { problems: [{ field: "cursor", hint: "badCursor" }] });
    }
  });
}

function auditPage(
  c: DashboardContext,
  scope: IntegrationScope,
  filters: Filters,
  props: {
    page?: { events: AuditEventRow[]; nextCursor: string | null };
    problems?: readonly FieldProblem[];
  },
) {
  const language = c.get("dashboard").language;
  const t = TEXT[language];
  const integration = scope.current?.id;
  const problems = props.problems ?? [];
  return renderPage(c, {
    title: t.title,
    section: "audit",
    integrations: { all: scope.all, current: scope.current, chooser: false },
    children: (
      <>
        <p>{t.intro}</p>
        <p class="note">{t.everyIntegration}</p>
        <AuditFilters language={language} integration={integration} filters={filters} problems={problems} />
        {problems.length > 0 ? <ErrorNote c={c} error={refusal(problems)} /> : null}
        {props.page ? (
          <>
            {props.page.events.length === 0 ? (
              <p>{t.none}</p>
            ) : (
              <DataTable
                caption={t.caption}
                columns={columns(language)}
                rows={props.page.events}
                rowAttributes={(event) => ({ "data-audit-id": event.id, "data-action": event.action })}
              />
            )}
            <Pager t={t} integration={integration} filters={filters} nextCursor={props.page.nextCursor} />
          </>
        ) : null}
      </>
    ),
  });
}

/**
 * The filter form, a GET to the page: the action, the dates, and (hidden) the integration the links
 * keep and a `limit` the address named. New filters start at the newest entry (no cursor). A refused
 * field says why under it and is marked invalid.
 */
function AuditFilters(props: {
  language: Language;
  integration: string | undefined;
  filters: Filters;
  problems: readonly FieldProblem[];
}) {
  const t = TEXT[props.language];
  const common = commonText(props.language);
  const labels = ACTION_LABELS[props.language];
  const problemOf = (field: Field) => props.problems.find((problem) => problem.field === field);
  const invalid = (field: Field, id: string) => {
    const problem = problemOf(field);
    return problem ? { "aria-invalid": "true", "aria-describedby": `${id}-error` } : {};
  };
  const fieldError = (field: Field, id: string) => {
    const problem = problemOf(field);
    return problem ? (
      <p class="field-error" id={`${id}-error`}>
        {t[problem.hint]}
      </p>
    ) : null;
  };
  return (
    <form method="get" action={AUDIT_PATH} class="filters" aria-label={common.filter}>
      {props.integration ? <input type="hidden" name="integration" value={props.integration} /> : null}
      {props.filters.limit ? <input type="hidden" name="limit" value={props.filters.limit} /> : null}
      <div>
        <label for="audit-action">{t.action}</label>
        <select id="audit-action" name="action" {...invalid("action", "audit-action")}>
          <option value="">{t.allActions}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option value={action} selected={action === props.filters.action}>
              {labels[action]}
            </option>
          ))}
        </select>
        {fieldError("action", "audit-action")}
      </div>
      <div>
        <label for="audit-from">{t.from}</label>
        <input
          id="audit-from"
          name="from"
          type="date"
          value={props.filters.from ?? ""}
          {...invalid("from", "audit-from")}
        />
        {fieldError("from", "audit-from")}
      </div>
      <div>
        <label for="audit-to">{t.to}</label>
        <input
          id="audit-to"
          name="to"
          type="date"
          value={props.filters.to ?? ""}
          {...invalid("to", "audit-to")}
        />
        {fieldError("to", "audit-to")}
      </div>
      <button type="submit" class="secondary">
        {common.filter}
      </button>
    </form>
  );
}

/** Keyset paging, as the API's: "older" carries the list's cursor and every filter, "newest" drops the cursor. */
function Pager(props: {
  t: AuditText;
  integration: string | undefined;
  filters: Filters;
  nextCursor: string | null;
}) {
  const { cursor, ...kept } = props.filters;
  const base = { integration: props.integration, ...kept };
  if (!cursor && !props.nextCursor) return null;
  return (
    <nav class="pager" aria-label={props.t.pages}>
      {cursor ? <a href={dashboardHref("/audit", base)}>{props.t.newest}</a> : null}
      {props.nextCursor ? (
        <a href={dashboardHref("/audit", { ...base, cursor: props.nextCursor })} rel="next">
          {props.t.older}
        </a>
      ) : null}
    </nav>
  );
}

function columns(language: Language): ReadonlyArray<Column<AuditEventRow>> {
  const t = TEXT[language];
  const targets: Record<string, string> = TARGET_LABELS[language];
  return [
    { head: t.at, cell: (event) => <UtcTime at={event.at} /> },
    {
      head: t.action,
      cell: (event) => (
        <>
          {ACTION_LABELS[language][event.action]}
          <br />
          <code>{event.action}</code>
        </>
      ),
    },
    {
      head: t.who,
      cell: (event) => (
        <>
          {ACTOR_LABELS[language][event.actorType]}
          <br />
          <span class="mono">{event.actorId}</span>
        </>
      ),
    },
    { head: t.address, kind: "mono", cell: (event) => event.actorIp ?? "—" },
    {
      head: t.target,
      cell: (event) => (
        <>
          {targets[event.targetType] ?? event.targetType}
          <br />
          <span class="mono">{event.targetId}</span>
        </>
      ),
    },
    { head: t.changes, cell: (event) => <Changes t={t} event={event} /> },
  ];
}

/**
 * The time as stored, in UTC, as the date filter reads it: not a `<time datetime>`, which the
 * dashboard's script would turn into the viewer's time zone.
 */
function UtcTime(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <span title={iso}>{`${iso.slice(0, 19).replace("T", " ")} UTC`}</span>;
}

/**
 * Each field whose value the change altered, before → after, from the entry alone: a side the entry
 * does not hold (a creation has no before, a deletion no after) is "—", a stored null is `null`.
 */
function Changes(props: { t: AuditText; event: AuditEventRow }) {
  const { before, after } = props.event;
  if (!before && !after) return <span>—</span>;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changed = fields.filter(
    (field) => JSON.stringify(held(before, field)) !== JSON.stringify(held(after, field)),
  );
  if (changed.length === 0) return <span>{props.t.noChange}</span>;
  return (
    <ul style="list-style:none;margin:0;padding:0">
      {changed.map((field) => (
        <li style="overflow-wrap:anywhere" data-field={field}>
          <code>{field}</code>: <Value side={before} field={field} /> → <Value side={after} field={field} />
        </li>
      ))}
    </ul>
  );
}

/** A field's value when the entry's side holds it (null included), else undefined. */
function held(side: Record<string, unknown> | null, field: string): { value: unknown } | undefined {
  return side && Object.hasOwn(side, field) ? { value: side[field] } : undefined;
}

function Value(props: { side: Record<string, unknown> | null; field: string }) {
  const shown = held(props.side, props.field);
  if (!shown) return <span>—</span>;
  if (shown.value === null) return <code>null</code>;
  const text = typeof shown.value === "string" ? shown.value : JSON.stringify(shown.value);
  return <span class="mono">{text}</span>;
}
