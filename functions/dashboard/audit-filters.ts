import { AUDIT_ACTIONS } from "../../lib/audit/actions";
import { AUDIT_PAGE_LIMIT, type AuditQuery } from "../../lib/audit/list";
import type { DashboardContext } from "../../lib/http/dashboard-frame";
import { isStorableInstant } from "../../lib/kernel/clock";
import { ApiError, type Problem } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import { type Hint, TEXT } from "./audit-texts";

/** Entries per page when the address names no `limit` (the API's own default is 50 too, at most 200). */
const PAGE_SIZE = 50;

/** The query fields the page reads and carries from page to page, as the address holds them. */
const FIELDS = ["action", "from", "to", "limit", "cursor"] as const;
export type Field = (typeof FIELDS)[number];
export type Filters = Partial<Record<Field, string>>;

/** A refused filter: the field, and what to say about it. */
export interface FieldProblem {
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
export function auditQuery(
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
export function refusal(problems: readonly FieldProblem[]): ApiError {
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

export function filtersOf(c: DashboardContext): Filters {
  const filters: Filters = {};
  for (const field of FIELDS) {
    const value = c.req.query(field)?.trim();
    if (value) filters[field] = value;
  }
  return filters;
}
