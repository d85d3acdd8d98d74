import type { DashboardContext } from "../../lib/http/dashboard-frame";
import { isStorableInstant } from "../../lib/kernel/clock";
import { ApiError, type Problem } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";

/**
 * What the organization's log pages (the audit log, the request logs) share in their filters:
 * reading them from the address, the `from`/`to` UTC dates (both days included), and the 400 that
 * names each refused field in both languages.
 */

/** The words of the filters every log page has, spread into each page's own texts. */
export const LOG_FILTER_TEXT = {
  es: {
    from: "Desde (UTC)",
    to: "Hasta (UTC, incluido)",
    at: "Cuándo (UTC)",
    intro400: "Revisa el filtro:",
    badFrom: "«Desde» debe ser una fecha AAAA-MM-DD que exista",
    badTo: "«Hasta» debe ser una fecha AAAA-MM-DD que exista",
    toBeforeFrom: "«Hasta» no puede ser anterior a «Desde»",
    badCursor: "el cursor no es de esta lista; vuelve a la primera página",
  },
  en: {
    from: "From (UTC)",
    to: "To (UTC, included)",
    at: "When (UTC)",
    intro400: "Check the filter:",
    badFrom: "“From” must be a date, YYYY-MM-DD, that exists",
    badTo: "“To” must be a date, YYYY-MM-DD, that exists",
    toBeforeFrom: "“To” cannot be before “From”",
    badCursor: "the cursor is not one of this list's; go back to the first page",
  },
} as const satisfies Record<Language, Record<string, string>>;

/** A refused filter: the field, and the key of the page's text that says what is wrong with it. */
export interface FieldProblem<Field extends string = string, Hint extends string = string> {
  field: Field;
  hint: Hint;
}

/** The page's `fields` as the address holds them, trimmed; a blank field is no filter. */
export function queryFilters<Field extends string>(
  c: DashboardContext,
  fields: readonly Field[],
): Partial<Record<Field, string>> {
  const filters: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const value = c.req.query(field)?.trim();
    if (value) filters[field] = value;
  }
  return filters;
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

type DateHint = "badFrom" | "badTo" | "toBeforeFrom";

/**
 * The `from`/`to` dates as the lists take them: `from` that day's start, `to` the start of the day
 * after (both days included, UTC); or the fields that fail.
 */
export function dayRange(filters: { from?: string; to?: string }): {
  from?: Date;
  to?: Date;
  problems: FieldProblem<"from" | "to", DateHint>[];
} {
  const problems: FieldProblem<"from" | "to", DateHint>[] = [];
  const from = filters.from === undefined ? undefined : dayStart(filters.from);
  if (filters.from !== undefined && from === undefined) problems.push({ field: "from", hint: "badFrom" });
  const to = filters.to === undefined ? undefined : dayStart(filters.to);
  if (filters.to !== undefined && to === undefined) problems.push({ field: "to", hint: "badTo" });
  if (from !== undefined && to !== undefined && to < from)
    problems.push({ field: "to", hint: "toBeforeFrom" });
  return {
    ...(from === undefined ? {} : { from: new Date(from) }),
    // The day after 9999-12-31 is past what Postgres stores, and nothing is after it anyway.
    ...(to === undefined || !isStorableInstant(new Date(to + DAY_MS)) ? {} : { to: new Date(to + DAY_MS) }),
    problems,
  };
}

/** A list's refusal of its cursor: the one refusal the log lists have (a cursor they did not give). */
export function refusedCursor(error: unknown): boolean {
  return error instanceof ApiError && error.code === "INVALID_REQUEST";
}

/**
 * The 400 a page answers for refused filters: the code's message and each field named, in both
 * languages, from the page's `text` (its `intro400` and each problem's hint).
 */
export function filterRefusal<Hint extends string>(
  text: Record<Language, Record<Hint | "intro400", string>>,
  problems: readonly FieldProblem<string, Hint>[],
): ApiError {
  const detail = (language: Language) =>
    `${text[language].intro400} ${problems.map((problem) => text[language][problem.hint]).join("; ")}.`;
  return new ApiError("INVALID_REQUEST", {
    detail: { es: detail("es"), en: detail("en") },
    problems: problems.map(
      (problem): Problem => ({
        field: `query.${problem.field}`,
        code: "INVALID_REQUEST",
        problem: text.en[problem.hint],
      }),
    ),
  });
}
