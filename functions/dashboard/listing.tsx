import type { z } from "@hono/zod-openapi";
import type { Child } from "hono/jsx";
import type { DashboardContext } from "../../lib/http/dashboard-frame";
import { validationError } from "../../lib/http/validation";
import type { ServiceContext } from "../../lib/kernel/context";
import { ApiError } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import { type Column, DataTable } from "./data-table";
import { dashboardHref } from "./layout";
import { commonText } from "./texts";

/**
 * What the activity pages (orders, payouts, swaps) share: their filter form and its fields, the
 * filters checked by the API route's own query schema, the pager over the verb's cursor, and chain
 * names. The log pages (audit log, request logs) use the form, its field marks and the pager too.
 */

/** Rows per page when the address names no `limit` (the API's own default is 100, at most 500). */
const DASHBOARD_PAGE_SIZE = 25;

/** The query fields a listing page reads and carries from page to page. */
const LIST_FIELDS = ["status", "since", "userAddress", "limit", "cursor"] as const;
export type ListField = (typeof LIST_FIELDS)[number];
export type ListFilters = Partial<Record<ListField, string>>;

const HINTS = {
  es: {
    filters: "Filtros",
    pages: "Páginas",
    intro: "Revisa el filtro:",
    status: "«Estado» no es uno de los estados de la lista",
    since: "«Desde» debe ser una fecha (AAAA-MM-DD) o un instante ISO 8601 con su zona horaria",
    userAddress: "«Wallet del usuario» debe ser una dirección con la suma de control EIP-55",
    limit: "«limit» debe ser un número entero de 1 a 500",
    cursor: "el cursor no es de esta lista; vuelve a la primera página",
  },
  en: {
    filters: "Filters",
    pages: "Pages",
    intro: "Check the filter:",
    status: "“Status” is not one of the listed statuses",
    since: "“Since” must be a date (YYYY-MM-DD) or an ISO 8601 instant with its time zone",
    userAddress: "“User wallet” must be an EIP-55 checksummed address",
    limit: "“limit” must be a whole number from 1 to 500",
    cursor: "the cursor is not one of this list's; go back to the first page",
  },
} as const satisfies Record<Language, Record<string, string>>;

/** The page's filters as the address holds them (blank fields are no filter). */
export function listFilters(c: DashboardContext): ListFilters {
  const filters: ListFilters = {};
  for (const field of LIST_FIELDS) {
    const value = c.req.query(field)?.trim();
    if (value) filters[field] = value;
  }
  return filters;
}

/**
 * The filters as the API's query takes them: a bare date (what the date field sends) is that day's
 * start in UTC; anything else goes to the schema as typed, so the API's rules decide.
 */
function apiQuery(
  filters: ListFilters,
  fields: readonly ListField[],
  fixed: Record<string, string>,
): Record<string, string> {
  const query: Record<string, string> = { limit: String(DASHBOARD_PAGE_SIZE), ...fixed };
  for (const field of fields) {
    const value = filters[field];
    if (value === undefined) continue;
    query[field] = field === "since" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  }
  return query;
}

export type CheckedQuery<Output> = { ok: true; query: Output } | { ok: false; error: ApiError };

/**
 * The filters checked by `schema`, the API route's query schema: the same rules, so a filter the
 * API refuses is refused here too, as a 400 naming the field in both languages. `fixed` holds what
 * the page sets itself (the swaps' `integration_id`).
 */
export function checkedQuery<Schema extends z.ZodType>(
  schema: Schema,
  filters: ListFilters,
  fields: readonly ListField[],
  fixed: Record<string, string> = {},
): CheckedQuery<z.output<Schema>> {
  const parsed = schema.safeParse(apiQuery(filters, fields, fixed));
  if (parsed.success) return { ok: true, query: parsed.data };
  const base = validationError("query", parsed.error.issues);
  const failing = new Set(
    (base.options.problems ?? []).map((problem) => problem.field.replace(/^query\./, "")),
  );
  const named = LIST_FIELDS.filter((field) => failing.has(field));
  const detail = (language: Language) =>
    `${HINTS[language].intro} ${named.map((field) => HINTS[language][field]).join("; ")}.`;
  return {
    ok: false,
    error: new ApiError(base.code, {
      ...(named.length > 0 ? { detail: { es: detail("es"), en: detail("en") } } : {}),
      ...(base.options.problems ? { problems: base.options.problems } : {}),
    }),
  };
}

/** The checked query as the verb takes it: `since` as a Date, as the API routes hand it over. */
export function verbQuery<Query extends { since?: string | undefined }>(
  query: Query,
): Omit<Query, "since"> & { since?: Date } {
  const { since, ...rest } = query;
  return { ...rest, ...(since ? { since: new Date(since) } : {}) };
}

/** The value a date field shows for the `since` filter (empty when it holds a whole instant). */
function sinceFieldValue(filters: ListFilters): string {
  const since = filters.since ?? "";
  return /^\d{4}-\d{2}-\d{2}$/.test(since) ? since : "";
}

/**
 * Forward paging over the verb's cursor: "next" carries the cursor and every filter, "first page"
 * drops the cursor. Cursors only go forward, as the API's do. A newest-first log names its links
 * "older" and "newest" (`labels`).
 */
export function Pager(props: {
  c: DashboardContext;
  path: string;
  integrationId: string | undefined;
  filters: Partial<Record<string, string>> & { cursor?: string };
  nextCursor: string | null;
  labels?: { first: string; next: string };
}) {
  const language = props.c.get("dashboard").language;
  const labels = props.labels ?? commonText(language);
  const { cursor, ...kept } = props.filters;
  const base = { integration: props.integrationId, ...kept };
  if (!cursor && !props.nextCursor) return null;
  return (
    <nav class="pager" aria-label={HINTS[language].pages}>
      {cursor ? <a href={dashboardHref(props.path, base)}>{labels.first}</a> : null}
      {props.nextCursor ? (
        <a href={dashboardHref(props.path, { ...base, cursor: props.nextCursor })} rel="next">
          {labels.next}
        </a>
      ) : null}
    </nav>
  );
}

/**
 * A list's filter form: a GET to the list, keeping the integration (when the organization has one)
 * and a `limit` the address named (hidden), with the page's own fields (`children`) and the button.
 * The cursor is dropped: new filters start at the first page.
 */
export function FilterForm(props: {
  language: Language;
  action: string;
  integrationId: string | undefined;
  filters: { limit?: string };
  children: Child;
}) {
  return (
    <form method="get" action={props.action} class="filters" aria-label={HINTS[props.language].filters}>
      {props.integrationId ? <input type="hidden" name="integration" value={props.integrationId} /> : null}
      {props.filters.limit ? <input type="hidden" name="limit" value={props.filters.limit} /> : null}
      {props.children}
      <button type="submit" class="secondary">
        {commonText(props.language).filter}
      </button>
    </form>
  );
}

/** The status select: "all" and each status the API's schema accepts. */
export function StatusSelect(props: {
  language: Language;
  statuses: readonly string[];
  value: string | undefined;
}) {
  const t = commonText(props.language);
  return (
    <div>
      <label for="filter-status">{t.status}</label>
      <select id="filter-status" name="status">
        <option value="">{t.all}</option>
        {props.statuses.map((status) => (
          <option value={status} selected={status === props.value}>
            {status}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A refused filter field's marks, named by its `id`: `invalid` for the field (aria-invalid, and
 * described by its error) and `error`, the message under it; nothing when `message` is undefined.
 */
export function fieldMarks(id: string, message: string | undefined) {
  if (message === undefined) return { invalid: {}, error: null };
  return {
    invalid: { "aria-invalid": "true", "aria-describedby": `${id}-error` },
    error: (
      <p class="field-error" id={`${id}-error`}>
        {message}
      </p>
    ),
  };
}

/**
 * The `from` and `to` date fields of a log's filters (UTC days, both included: `dayRange`), ids
 * `{prefix}-from` and `{prefix}-to`, each with its refusal (`problemOf`) marked.
 */
export function DateRangeFields(props: {
  prefix: string;
  labels: { from: string; to: string };
  filters: { from?: string; to?: string };
  problemOf: (field: "from" | "to") => string | undefined;
}) {
  return (
    <>
      {(["from", "to"] as const).map((field) => {
        const id = `${props.prefix}-${field}`;
        const marks = fieldMarks(id, props.problemOf(field));
        return (
          <div>
            <label for={id}>{props.labels[field]}</label>
            <input id={id} name={field} type="date" value={props.filters[field] ?? ""} {...marks.invalid} />
            {marks.error}
          </div>
        );
      })}
    </>
  );
}

export function SinceField(props: { language: Language; filters: ListFilters; label?: string }) {
  const t = commonText(props.language);
  return (
    <div>
      <label for="filter-since">{props.label ?? `${t.since} (UTC)`}</label>
      <input id="filter-since" name="since" type="date" value={sinceFieldValue(props.filters)} />
    </div>
  );
}

/** A chain's name as the chain registry knows it, with its id. */
export function chainLabel(ctx: ServiceContext, chainId: number | null | undefined): string {
  if (chainId === null || chainId === undefined) return "—";
  const chain = ctx.chains.chains.find((candidate) => candidate.chainId === chainId);
  return chain ? `${chain.name} (${chainId})` : String(chainId);
}

/**
 * One page of a listing: its table (or the listing's "none" line when the page is empty) and the
 * pager after it, keeping the filters. What the activity lists and the logs show alike.
 */
export function PagedTable<Row>(props: {
  c: DashboardContext;
  text: { none: string; caption: string };
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowAttributes?: (row: Row) => Record<string, string>;
  path: string;
  integrationId: string | undefined;
  filters: Partial<Record<string, string>> & { cursor?: string };
  nextCursor: string | null;
  labels?: { first: string; next: string };
}) {
  return (
    <>
      {props.rows.length === 0 ? (
        <p>{props.text.none}</p>
      ) : (
        <DataTable
          caption={props.text.caption}
          columns={props.columns}
          rows={props.rows}
          {...(props.rowAttributes ? { rowAttributes: props.rowAttributes } : {})}
        />
      )}
      <Pager
        c={props.c}
        path={props.path}
        integrationId={props.integrationId}
        filters={props.filters}
        nextCursor={props.nextCursor}
        {...(props.labels ? { labels: props.labels } : {})}
      />
    </>
  );
}
