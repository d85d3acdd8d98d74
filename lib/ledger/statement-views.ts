import { base64url } from "jose";
import { dashboardMac } from "../dashboard/session-key";
import { isStorableInstant } from "../kernel/clock";
import { equalStrings } from "../kernel/constant-time";
import { ApiError } from "../kernel/errors/api-error";
import { hasPrefix } from "../kernel/ids";
import { TOKEN_SYMBOLS, type TokenSymbol } from "../kernel/money";
import type { PartnerContext } from "../tenancy/caller";
import { type LineKey, type StatementLine, statementLines } from "./statement";

export const STATEMENT_PAGE_LIMIT = 1000;
export const STATEMENT_DEFAULT_LIMIT = 100;
/** The longest period one statement covers: a year and a day. */
export const STATEMENT_MAX_DAYS = 366;

interface Total {
  token: string;
  chainId: number;
  amount: bigint;
}

/** Sums per token and chain, in the order each first appears (a page's from its cursor's totals). */
class RunningTotals {
  readonly #totals = new Map<string, Total>();
  constructor(opening: readonly Total[] = []) {
    for (const total of opening) this.#totals.set(`${total.token}:${total.chainId}`, { ...total });
  }
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
  entries(): Total[] {
    return [...this.#totals.values()].map((total) => ({ ...total }));
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

/**
 * A page's position: the key of the last line before it and the running totals there, so the next
 * page reads on from that line, never the period before it. Signed under the service's key, bound to
 * the organization and the period: a cursor naming other totals, or another statement's, is refused.
 */
interface StatementCursor extends LineKey {
  totals: Total[];
}

/** A cursor: base64url JSON `[at, id, seq, [[token, chainId, amount], …]]`, `.`, its HMAC in hex. */
const CURSOR_MAC = /^[0-9a-f]{64}$/;
/** A statement's records: settlement orders, payouts and swaps. */
const RECORD_PREFIXES = ["ord", "po", "si"] as const;
const AMOUNT = /^-?\d{1,78}$/;
/** More than any receipt has movements. */
const MAX_SEQ = 10_000;
/** More than the service has tokens on chains. */
const MAX_TOTALS = 64;

async function cursorMac(ctx: PartnerContext, period: { from: Date; to: Date }, body: string) {
  const bound = `${ctx.caller.organizationId}:${period.from.toISOString()}:${period.to.toISOString()}`;
  return (await dashboardMac(ctx.config, `statement-cursor:${bound}:${body}`)).slice(2);
}

async function encodeStatementCursor(
  ctx: PartnerContext,
  period: { from: Date; to: Date },
  cursor: StatementCursor,
): Promise<string> {
  const totals = cursor.totals.map((total) => [total.token, total.chainId, total.amount.toString()]);
  const body = base64url.encode(JSON.stringify([cursor.at.toISOString(), cursor.id, cursor.seq, totals]));
  return `${body}.${await cursorMac(ctx, period, body)}`;
}

/** The cursor's parts when it has a cursor's shape (its MAC is checked against the statement after). */
export function decodeStatementCursor(
  cursor: string,
): (StatementCursor & { body: string; mac: string }) | undefined {
  const [body, mac, ...rest] = cursor.split(".");
  if (body === undefined || mac === undefined || rest.length > 0 || !CURSOR_MAC.test(mac)) return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(new TextDecoder().decode(base64url.decode(body)));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 4) return undefined;
  const [at, id, seq, totals] = parts as unknown[];
  const instant = typeof at === "string" ? new Date(at) : undefined;
  if (!instant || !isStorableInstant(instant) || instant.toISOString() !== at) return undefined;
  if (typeof id !== "string" || !RECORD_PREFIXES.some((prefix) => hasPrefix(id, prefix))) return undefined;
  if (!Number.isSafeInteger(seq) || (seq as number) < 0 || (seq as number) > MAX_SEQ) return undefined;
  if (!Array.isArray(totals) || totals.length > MAX_TOTALS) return undefined;
  const opening: Total[] = [];
  for (const total of totals as unknown[]) {
    if (!Array.isArray(total) || total.length !== 3) return undefined;
    const [token, chainId, amount] = total as unknown[];
    if (!TOKEN_SYMBOLS.includes(token as TokenSymbol) || !Number.isSafeInteger(chainId)) return undefined;
    if (typeof amount !== "string" || !AMOUNT.test(amount)) return undefined;
    opening.push({ token: token as string, chainId: chainId as number, amount: BigInt(amount) });
  }
  return { at: instant, id, seq: seq as number, totals: opening, body, mac };
}

/** The cursor's position, when this service made it for this organization's statement of this period. */
async function openStatementCursor(
  ctx: PartnerContext,
  period: { from: Date; to: Date },
  cursor: string,
): Promise<StatementCursor> {
  const decoded = decodeStatementCursor(cursor);
  // The MAC binds the period already; the range still holds where the key is public (mock mode).
  const ours =
    decoded !== undefined &&
    equalStrings(decoded.mac, await cursorMac(ctx, period, decoded.body)) &&
    decoded.at >= period.from &&
    decoded.at < period.to;
  if (!ours) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [
        {
          field: "query.cursor",
          code: "INVALID_REQUEST",
          problem:
            "must be a nextCursor of this statement, as given (the same from and to, by the same organization)",
        },
      ],
    });
  }
  return decoded;
}

/**
 * A page of the statement: its lines with the running total of each line's token and chain from the
 * period's start, the totals before the page and after it. A page reads on from its cursor's line
 * with the totals the cursor carries, so any page costs what its own lines cost, however deep.
 */
export async function statementPage(
  ctx: PartnerContext,
  query: { from: Date; to: Date; cursor?: string | undefined; limit: number },
) {
  const after = query.cursor ? await openStatementCursor(ctx, query, query.cursor) : undefined;
  const totals = new RunningTotals(after?.totals);
  const opening = totals.view();
  const lines: ReturnType<typeof lineView>[] = [];
  let last: StatementLine | undefined;
  let more = false;
  for await (const line of statementLines(ctx, query, after)) {
    if (lines.length === query.limit) {
      more = true;
      break;
    }
    lines.push(lineView(line, totals.add(line)));
    last = line;
  }
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    openingTotals: opening,
    lines,
    closingTotals: totals.view(),
    nextCursor:
      more && last
        ? await encodeStatementCursor(ctx, query, {
            at: last.at,
            id: last.id,
            seq: last.seq,
            totals: totals.entries(),
          })
        : null,
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
  /** Only the lines it keeps, their totals only (the operator's movements report, lib/compliance). */
  include?: (line: StatementLine) => Promise<boolean>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const row = (fields: readonly string[]) => encoder.encode(`${fields.map(csvField).join(",")}\r\n`);
  const lines = include ? keptLines(statementLines(ctx, period), include) : statementLines(ctx, period);
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

async function* keptLines(
  lines: AsyncGenerator<StatementLine>,
  include: (line: StatementLine) => Promise<boolean>,
): AsyncGenerator<StatementLine> {
  for await (const line of lines) if (await include(line)) yield line;
}
