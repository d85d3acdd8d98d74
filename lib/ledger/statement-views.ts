import { base64url } from "jose";
import type { PartnerContext } from "../tenancy/caller";
import { type StatementLine, statementLines } from "./statement";

export const STATEMENT_PAGE_LIMIT = 1000;
export const STATEMENT_DEFAULT_LIMIT = 100;
/** The longest period one statement covers: a year and a day. */
export const STATEMENT_MAX_DAYS = 366;

interface Total {
  token: string;
  chainId: number;
  amount: bigint;
}

/** Sums per token and chain, in the order each first appears. */
class RunningTotals {
  readonly #totals = new Map<string, Total>();
  add(line: StatementLine): bigint {
    const key = `${line.token}:${line.chainId}`;
    const total = this.#totals.get(key) ?? { token: line.token, chainId: line.chainId, amount: 0n };
    total.amount += line.amount;
    this.#totals.set(key, total);
    return total.amount;
  }
  view() {
    return [...this.#totals.values()].map((total) => ({ ...total, amount: total.amount.toString() }));
  }
}

const lineView = (line: StatementLine, runningTotal: bigint) => ({
  at: line.at.toISOString(),
  type: line.type,
  id: line.id,
  leg: line.leg,
  txHash: line.txHash,
  token: line.token,
  chainId: line.chainId,
  amount: line.amount.toString(),
  counterparty: line.counterparty,
  runningTotal: runningTotal.toString(),
});

/** A page's position: how many lines of the statement come before it. */
function encodeStatementCursor(skip: number): string {
  return base64url.encode(JSON.stringify({ skip }));
}

export function decodeStatementCursor(cursor: string): number | undefined {
  try {
    const { skip } = JSON.parse(new TextDecoder().decode(base64url.decode(cursor))) as { skip?: unknown };
    return Number.isSafeInteger(skip) && (skip as number) >= 0 ? (skip as number) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A page of the statement: its lines with the running total of each line's token and chain from the
 * period's start, the totals before the page and after it. A page is found by counting the lines
 * before it (the statement of a past period never changes; one reaching now only grows at its end),
 * so a deep page re-reads the period up to it: large periods are for the CSV, which is one pass.
 */
export async function statementPage(
  ctx: PartnerContext,
  query: { from: Date; to: Date; cursor?: string | undefined; limit: number },
) {
  const skip = query.cursor ? (decodeStatementCursor(query.cursor) ?? 0) : 0;
  const totals = new RunningTotals();
  let opening: ReturnType<RunningTotals["view"]> = [];
  const lines: ReturnType<typeof lineView>[] = [];
  let seen = 0;
  let more = false;
  for await (const line of statementLines(ctx, query)) {
    if (seen === skip) opening = totals.view();
    if (seen >= skip + query.limit) {
      more = true;
      break;
    }
    const running = totals.add(line);
    if (seen >= skip) lines.push(lineView(line, running));
    seen += 1;
  }
  if (seen <= skip) opening = totals.view();
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    openingTotals: opening,
    lines,
    closingTotals: totals.view(),
    nextCursor: more ? encodeStatementCursor(skip + query.limit) : null,
  };
}

/**
 * The dashboard's view of a period, in one pass: its first `limit` lines and the totals of the whole
 * period (read to its end, keeping no more lines than the first ones).
 */
export async function statementPreview(ctx: PartnerContext, query: { from: Date; to: Date; limit: number }) {
  const totals = new RunningTotals();
  const lines: ReturnType<typeof lineView>[] = [];
  let count = 0;
  for await (const line of statementLines(ctx, query)) {
    const running = totals.add(line);
    if (count < query.limit) lines.push(lineView(line, running));
    count += 1;
  }
  return { lines, totals: totals.view(), count };
}

const CSV_COLUMNS = [
  "at",
  "type",
  "id",
  "leg",
  "tx_hash",
  "token",
  "chain_id",
  "amount",
  "counterparty",
  "running_total",
] as const;

/**
 * A CSV field: quoted when it holds a comma, quote or line break; one a spreadsheet would read as a
 * formula (a leading =, +, @, tab, carriage return, or - not starting a number) is prefixed with '.
 */
function csvField(value: string): string {
  const text = /^[=+@\t\r]/.test(value) || /^-[^\d]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The whole statement as CSV, streamed as it is read: a header, one row per movement, then one
 * `total` row per token and chain. A statement cut short (the connection, a failure) has no total
 * rows, so a truncated file is never mistaken for a whole one.
 */
export function statementCsv(
  ctx: PartnerContext,
  period: { from: Date; to: Date },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const row = (fields: readonly string[]) => encoder.encode(`${fields.map(csvField).join(",")}\r\n`);
  const lines = statementLines(ctx, period);
  const totals = new RunningTotals();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(row(CSV_COLUMNS));
      }
      const next = await lines.next();
      if (next.done) {
        for (const total of totals.view())
          controller.enqueue(
            row([
              "",
              "total",
              "",
              "",
              "",
              total.token,
              String(total.chainId),
              total.amount,
              "",
              total.amount,
            ]),
          );
        controller.close();
        return;
      }
      const view = lineView(next.value, totals.add(next.value));
      controller.enqueue(
        row([
          view.at,
          view.type,
          view.id,
          view.leg,
          view.txHash ?? "",
          view.token,
          String(view.chainId),
          view.amount,
          view.counterparty,
          view.runningTotal,
        ]),
      );
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}
