import { eq } from "drizzle-orm";
import { brebPayouts, settlementOrders, settlementQuotes, swapIntents } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { rescale, TOKEN_DECIMALS, type TokenSymbol } from "../kernel/money";
import { getOrganization } from "../tenancy/organizations";
import type { StatementLine } from "./statement";
import { statementCsv } from "./statement-views";

/** US dollars are counted as USDC: six decimals. */
const USD_DECIMALS = 6;
/** The tokens worth a dollar each, for a swap's value (its stable side). */
const DOLLAR_TOKENS: readonly string[] = ["USDC", "USDT", "USDm"];

/**
 * The operator's report of an organization's month (docs/compliance.md, "Movements report"), a view of the statement: the
 * movements of its statement in that UTC month, in the statement's CSV format, of the records worth
 * at least `minUsd` (a settlement by its principal, a payout by its dollar value, a swap by its
 * dollar side), with totals of those lines only. What a reporting obligation (SARLAFT's, the UIAF's
 * thresholds) asks the operator to file.
 */
export async function movementsReport(
  ctx: ServiceContext,
  organizationId: string,
  query: { month: string; minUsd: bigint },
): Promise<{ csv: ReadableStream<Uint8Array>; fileName: string }> {
  const organization = await getOrganization(ctx, organizationId);
  const period = monthOf(query.month);
  const worth = new Map<string, Promise<bigint>>();
  const include = async (line: StatementLine) => {
    let value = worth.get(line.id);
    if (!value) {
      value = recordUsd(ctx.db, line);
      worth.set(line.id, value);
    }
    return (await value) >= query.minUsd;
  };
  // The statement reads through an organization's caller; the operator stands for none of its keys.
  const caller = { organizationId, integrationId: "", keyId: "operator", organization };
  return {
    csv: statementCsv({ ...ctx, caller }, period, include),
    fileName: `movements-${organizationId}-${query.month}.csv`,
  };
}

/** [first instant of the month, first instant of the next), UTC; a month that is not YYYY-MM is 400. */
function monthOf(month: string): { from: Date; to: Date } {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) {
    throw new ApiError("INVALID_REQUEST", {
      problems: [{ field: "query.month", code: "INVALID_REQUEST", problem: "must be a month as YYYY-MM" }],
    });
  }
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { from: new Date(Date.UTC(year, index, 1)), to: new Date(Date.UTC(year, index + 1, 1)) };
}

/** What a statement line's record is worth in US dollars (USDC atomic units). */
async function recordUsd(db: Database, line: StatementLine): Promise<bigint> {
  switch (line.type) {
    case "settlement_order": {
      const [row] = await db
        .select({ usd: settlementQuotes.sendAmountUsdc })
        .from(settlementOrders)
        .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
        .where(eq(settlementOrders.id, line.id));
      return row?.usd ?? 0n;
    }
    case "payout": {
      const [row] = await db
        .select({ usd: brebPayouts.usdValue })
        .from(brebPayouts)
        .where(eq(brebPayouts.id, line.id));
      return row?.usd ?? 0n;
    }
    case "swap": {
      const [row] = await db.select().from(swapIntents).where(eq(swapIntents.id, line.id));
      if (!row) return 0n;
      const side = DOLLAR_TOKENS.includes(row.tokenIn)
        ? { token: row.tokenIn, amount: row.amountInSwapped ?? row.amountIn }
        : { token: row.tokenOut, amount: row.amountOutReceived ?? row.expectedAmountOut };
      if (!DOLLAR_TOKENS.includes(side.token)) return 0n;
      return rescale(side.amount, TOKEN_DECIMALS[side.token as TokenSymbol], USD_DECIMALS);
    }
    default:
      return line.type satisfies never;
  }
}
