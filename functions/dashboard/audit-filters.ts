import { AUDIT_ACTIONS } from "../../lib/audit/actions";
import { AUDIT_PAGE_LIMIT, type AuditQuery } from "../../lib/audit/list";
import type { Hint } from "./audit-texts";
import { dayRange, type FieldProblem as LogFieldProblem } from "./log-filters";

/** Entries per page when the address names no `limit` (the API's own default is 50 too, at most 200). */
const PAGE_SIZE = 50;

/** The query fields the page reads and carries from page to page, as the address holds them. */
export const AUDIT_FIELDS = ["action", "from", "to", "limit", "cursor"] as const;
export type Field = (typeof AUDIT_FIELDS)[number];
type Filters = Partial<Record<Field, string>>;

/** A refused filter: the field, and what to say about it. */
type FieldProblem = LogFieldProblem<Field, Hint>;

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
  const { from, to, problems: dateProblems } = dayRange(filters);
  problems.push(...dateProblems);
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
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(filters.cursor ? { cursor: filters.cursor } : {}),
    },
  };
}
