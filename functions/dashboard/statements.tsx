import type { OpenAPIHono } from "@hono/zod-openapi";
import { DASHBOARD_PATH, type DashboardContext, requirePermission } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { validationError } from "../../lib/http/validation";
import { ApiError } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { formatAmount, TOKEN_DECIMALS, type TokenSymbol } from "../../lib/kernel/money";
import { statementCsv, statementPreview } from "../../lib/ledger/statement-views";
import { statementQuery } from "../ledger/schemas";
import { Card } from "./card";
import { DataTable } from "./data-table";
import { ErrorNote } from "./feedback";
import { Amount, Hash, Time } from "./format";
import { type IntegrationScope, integrationScope } from "./integration";
import { dashboardHref, renderPage } from "./layout";
import { notFoundPage } from "./not-found";

const STATEMENTS_PATH = `${DASHBOARD_PATH}/statements`;
const DOWNLOAD_PATH = `${STATEMENTS_PATH}/download`;
const PREVIEW_LINES = 100;
const DAY_MS = 86_400_000;

const TEXT = {
  es: {
    title: "Extractos",
    intro:
      "Cada movimiento de dinero de las órdenes, pagos y swaps de tu organización en un periodo, con el total acumulado por token y cadena (docs/ledger.md). Fechas en UTC, ambas incluidas, hasta 366 días.",
    from: "Desde (UTC)",
    to: "Hasta (UTC, incluido)",
    show: "Ver",
    download: "Descargar CSV",
    totals: "Totales del periodo",
    lines: "Movimientos",
    firstLines: "Los primeros {count} de {total} movimientos; el CSV los trae todos.",
    none: "Ningún movimiento en este periodo.",
    at: "Cuándo",
    record: "Registro",
    leg: "Tramo",
    token: "Token",
    chain: "Cadena",
    amount: "Monto",
    counterparty: "Contraparte",
    running: "Acumulado",
    hash: "Transacción",
  },
  en: {
    title: "Statements",
    intro:
      "Every money movement of your organization's orders, payouts and swaps in a period, with the running total per token and chain (docs/ledger.md). Dates in UTC, both included, up to 366 days.",
    from: "From (UTC)",
    to: "To (UTC, included)",
    show: "Show",
    download: "Download CSV",
    totals: "Totals of the period",
    lines: "Movements",
    firstLines: "The first {count} of {total} movements; the CSV has them all.",
    none: "No movement in this period.",
    at: "When",
    record: "Record",
    leg: "Leg",
    token: "Token",
    chain: "Chain",
    amount: "Amount",
    counterparty: "Counterparty",
    running: "Running total",
    hash: "Transaction",
  },
} as const satisfies Record<Language, Record<string, string>>;

type StatementsText = (typeof TEXT)[Language];

interface Dates {
  from: string;
  to: string;
}

/**
 * The start of a form date's day, when it is YYYY-MM-DD and a real calendar date. Date.parse alone
 * reads far more (a parenthesis opens a comment to the end of the text; 31 November rolls over to 1
 * December), and whatever it read would reach the download's file name.
 */
function dayStart(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const start = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(start)) return undefined;
  return new Date(start).toISOString().slice(0, 10) === value ? start : undefined;
}

/** The period of the form's dates, both included: [from 00:00 UTC, the day after `to` 00:00 UTC). */
function periodOf(dates: Dates): { from: Date; to: Date } {
  const start = { from: dayStart(dates.from), to: dayStart(dates.to) };
  if (start.from === undefined || start.to === undefined) {
    const notDates = (["from", "to"] as const).filter((field) => start[field] === undefined);
    throw validationError(
      "query",
      notDates.map((field) => ({ path: [field], message: "must be a date, YYYY-MM-DD" })),
    );
  }
  // The schema checks the span and the years, as the API's statement does.
  const parsed = statementQuery.safeParse({
    from: new Date(start.from).toISOString(),
    to: new Date(start.to + DAY_MS).toISOString(),
  });
  if (!parsed.success) throw validationError("query", parsed.error.issues);
  return { from: new Date(parsed.data.from), to: new Date(parsed.data.to) };
}

/** The download's file name, from the period read (never the query's text): its first and last days. */
function fileName(period: { from: Date; to: Date }): string {
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  return `statement-${day(period.from.getTime())}-${day(period.to.getTime() - DAY_MS)}.csv`;
}

function datesOf(c: DashboardContext): Dates {
  const today = c.get("services").clock.now().toISOString().slice(0, 10);
  return { from: c.req.query("from") ?? today, to: c.req.query("to") ?? today };
}

/**
 * GET /dashboard/statements: the period's first movements and totals, and the form; GET
 * /dashboard/statements/download: the whole period as the API's CSV, streamed.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(STATEMENTS_PATH, requirePermission("statements:read"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "statements", back: DASHBOARD_PATH });
    const dates = datesOf(c);
    if (!scope.partner) return statementsPage(c, scope, dates, {});
    try {
      const preview = await statementPreview(scope.partner, { ...periodOf(dates), limit: PREVIEW_LINES });
      return statementsPage(c, scope, dates, { preview });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return statementsPage(c, scope, dates, { error });
    }
  });

  app.get(DOWNLOAD_PATH, requirePermission("statements:read"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.partner) return notFoundPage(c, { section: "statements", back: DASHBOARD_PATH });
    const dates = datesOf(c);
    try {
      const period = periodOf(dates);
      return c.body(statementCsv(scope.partner, period), 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName(period)}"`,
        "cache-control": "no-store",
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return statementsPage(c, scope, dates, { error });
    }
  });
}

function statementsPage(
  c: DashboardContext,
  scope: IntegrationScope,
  dates: Dates,
  props: { preview?: Awaited<ReturnType<typeof statementPreview>>; error?: ApiError },
) {
  const language = c.get("dashboard").language;
  const t = TEXT[language];
  const integration = scope.current?.id;
  const query = { integration, from: dates.from, to: dates.to };
  return renderPage(c, {
    title: t.title,
    section: "statements",
    integrations: { all: scope.all, current: scope.current },
    children: (
      <>
        <p>{t.intro}</p>
        <ErrorNote c={c} error={props.error} />
        <form method="get" action={STATEMENTS_PATH} class="filters">
          {integration ? <input type="hidden" name="integration" value={integration} /> : null}
          <label for="statement-from">{t.from}</label>
          <input id="statement-from" name="from" type="date" required value={dates.from} />
          <label for="statement-to">{t.to}</label>
          <input id="statement-to" name="to" type="date" required value={dates.to} />
          <button type="submit">{t.show}</button>
        </form>
        {props.preview ? (
          <>
            <p>
              <a id="statement-download" href={dashboardHref("/statements/download", query)} download>
                {t.download}
              </a>
            </p>
            <Totals t={t} language={language} totals={props.preview.totals} />
            <Lines t={t} language={language} preview={props.preview} />
          </>
        ) : null}
      </>
    ),
  });
}

const shown = (amount: string, token: string) =>
  formatAmount(BigInt(amount), TOKEN_DECIMALS[token as TokenSymbol] ?? 0);

function Totals(props: {
  t: StatementsText;
  language: Language;
  totals: Awaited<ReturnType<typeof statementPreview>>["totals"];
}) {
  const { t, language } = props;
  return (
    <Card id="statement-totals" title={t.totals}>
      {props.totals.length === 0 ? (
        <p>{t.none}</p>
      ) : (
        <DataTable
          labelledBy="statement-totals"
          rows={props.totals}
          columns={[
            { head: t.token, cell: (total) => total.token },
            { head: t.chain, cell: (total) => String(total.chainId) },
            {
              head: t.amount,
              kind: "num",
              cell: (total) => (
                <Amount value={shown(total.amount, total.token)} token={total.token} language={language} />
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}

function Lines(props: {
  t: StatementsText;
  language: Language;
  preview: Awaited<ReturnType<typeof statementPreview>>;
}) {
  const { t, language, preview } = props;
  if (preview.lines.length === 0) return null;
  return (
    <section aria-labelledby="statement-lines">
      <h2 id="statement-lines">{t.lines}</h2>
      {preview.count > preview.lines.length ? (
        <p class="note">
          {t.firstLines
            .replace("{count}", String(preview.lines.length))
            .replace("{total}", String(preview.count))}
        </p>
      ) : null}
      <DataTable
        labelledBy="statement-lines"
        rows={preview.lines}
        columns={[
          { head: t.at, cell: (line) => <Time at={line.at} /> },
          { head: t.record, kind: "mono", cell: (line) => line.id },
          { head: t.leg, cell: (line) => line.leg },
          { head: t.chain, cell: (line) => String(line.chainId) },
          {
            head: t.amount,
            kind: "num",
            cell: (line) => (
              <Amount value={shown(line.amount, line.token)} token={line.token} language={language} />
            ),
          },
          { head: t.counterparty, cell: (line) => line.counterparty },
          {
            head: t.running,
            kind: "num",
            cell: (line) => (
              <Amount value={shown(line.runningTotal, line.token)} token={line.token} language={language} />
            ),
          },
          { head: t.hash, cell: (line) => <Hash value={line.txHash} /> },
        ]}
      />
    </section>
  );
}
