import { and, eq, gt, notInArray, sql } from "drizzle-orm";
import { brebPayouts, settlementOrders, settlementQuotes } from "../../schema";
import type { Clock } from "../kernel/clock";
import type { Database } from "../kernel/db/database";
import { ApiError } from "../kernel/errors/api-error";
import { formatAmount } from "../kernel/money";

const DAY_MS = 24 * 60 * 60_000;

/**
 * The volume limits (docs/compliance.md, "Volume limits"): each a rolling window and what it
 * counts. One table: adding a limit fails to compile until its window, scope and setting are named.
 */
const VOLUME_LIMITS = {
  perUserDaily: { windowMs: DAY_MS, perUser: true, setting: "perUserDailyLimitUsd" },
  perUserMonthly: { windowMs: 30 * DAY_MS, perUser: true, setting: "perUserMonthlyLimitUsd" },
  organizationDaily: { windowMs: DAY_MS, perUser: false, setting: "organizationDailyLimitUsd" },
} as const;

export type VolumeLimit = keyof typeof VOLUME_LIMITS;
export const VOLUME_LIMIT_NAMES = Object.keys(VOLUME_LIMITS) as [VolumeLimit, ...VolumeLimit[]];

/** An organization's limits, in USDC atomic units (one US dollar is 1,000,000); null for none. */
export type VolumeLimitSettings = Record<(typeof VOLUME_LIMITS)[VolumeLimit]["setting"], bigint | null>;

/** Orders whose money went back to the user count for nothing. */
const UNCOUNTED_ORDER_STATUSES = ["RETURNED"] as const;
/** Payouts that never paid, or paid back, count for nothing. */
const UNCOUNTED_PAYOUT_STATUSES = ["expired", "failed", "refunded"] as const;

/**
 * Records a movement within the volume limits: `record` runs in a transaction after the locked
 * check (assertWithinVolumeLimits) when the organization has a limit, and as it is, with no
 * transaction and no statement more, when it has none.
 */
export async function recordWithinVolumeLimits<T>(
  ctx: { clock: Clock; db: Database },
  input: Omit<Parameters<typeof assertWithinVolumeLimits>[2], "lock">,
  record: (db: Database) => Promise<T>,
): Promise<T> {
  const limited = Object.values(VOLUME_LIMITS).some(({ setting }) => input.limits[setting] !== null);
  if (!limited) return record(ctx.db);
  return ctx.db.transaction(async (tx) => {
    await assertWithinVolumeLimits(ctx, tx, { ...input, lock: true });
    return record(tx);
  });
}

/** One movement already counted: its US dollar value and when it leaves the windows. */
interface Movement {
  usd: bigint;
  at: Date;
}

/**
 * Refuses a movement of `amountUsd` for `userAddress` that would take the organization past one of
 * its volume limits: 403 LIMIT_EXCEEDED naming the limit, what remains and when the window frees
 * enough for this amount. With `lock`, the check holds the organization's and the user's volume
 * locks to the end of `db`'s transaction, so two movements racing for the last of a limit take
 * turns and the second sees the first (call it in the transaction that records the movement).
 */
export async function assertWithinVolumeLimits(
  ctx: { clock: Clock },
  db: Database,
  input: {
    organizationId: string;
    userAddress: string;
    amountUsd: bigint;
    limits: VolumeLimitSettings;
    lock: boolean;
    stage: string;
  },
): Promise<void> {
  const set = (Object.keys(VOLUME_LIMITS) as VolumeLimit[]).filter(
    (name) => input.limits[VOLUME_LIMITS[name].setting] !== null,
  );
  if (set.length === 0) return;
  const user = input.userAddress.toLowerCase();
  if (input.lock) {
    // Always the organization's lock first, then the user's: two movements never wait on each other crosswise.
    await db.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`volume:${input.organizationId}`}, 0))`,
    );
    await db.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`volume:${input.organizationId}:${user}`}, 0))`,
    );
  }
  const now = ctx.clock.now();
  const longest = Math.max(...set.map((name) => VOLUME_LIMITS[name].windowMs));
  const since = new Date(now.getTime() - longest);
  const [userMovements, organizationMovements] = await Promise.all([
    set.some((name) => VOLUME_LIMITS[name].perUser)
      ? movements(db, input.organizationId, since, user)
      : Promise.resolve([]),
    set.some((name) => !VOLUME_LIMITS[name].perUser)
      ? movements(db, input.organizationId, new Date(now.getTime() - DAY_MS))
      : Promise.resolve([]),
  ]);
  for (const name of set) {
    const { windowMs, perUser, setting } = VOLUME_LIMITS[name];
    const limit = input.limits[setting] as bigint;
    const start = now.getTime() - windowMs;
    const counted = (perUser ? userMovements : organizationMovements).filter((m) => m.at.getTime() > start);
    const used = counted.reduce((sum, m) => sum + m.usd, 0n);
    if (used + input.amountUsd <= limit) continue;
    const remaining = limit > used ? limit - used : 0n;
    throw new ApiError("LIMIT_EXCEEDED", {
      stage: input.stage,
      detail: {
        es: `(${name}: quedan ${formatAmount(remaining, 6)} USD en la ventana)`,
        en: `(${name}: ${formatAmount(remaining, 6)} USD left in the window)`,
      },
      extras: {
        limit: name,
        limitUsd: formatAmount(limit, 6),
        remainingUsd: formatAmount(remaining, 6),
        resetsAt: freesAt(counted, used, input.amountUsd, limit, windowMs)?.toISOString() ?? null,
      },
    });
  }
}

/**
 * When enough of the window's movements have left it for `amount` to fit: the movements leave one
 * by one, `windowMs` after each was made; null when the amount alone passes the limit.
 */
function freesAt(
  counted: Movement[],
  used: bigint,
  amount: bigint,
  limit: bigint,
  windowMs: number,
): Date | null {
  if (amount > limit) return null;
  let left = used;
  for (const movement of [...counted].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    left -= movement.usd;
    if (left + amount <= limit) return new Date(movement.at.getTime() + windowMs);
  }
  return null;
}

/**
 * The organization's counted movements since `since`, of one user (lower-cased) or all: settlement
 * orders by their principal (their quote's sendAmountUsdc) and source address, payouts by their US
 * dollar value and user address.
 */
async function movements(
  db: Database,
  organizationId: string,
  since: Date,
  user?: string,
): Promise<Movement[]> {
  const [orders, payouts] = await Promise.all([
    db
      .select({ usd: settlementQuotes.sendAmountUsdc, at: settlementOrders.createdAt })
      .from(settlementOrders)
      .innerJoin(settlementQuotes, eq(settlementQuotes.id, settlementOrders.quoteId))
      .where(
        and(
          eq(settlementOrders.organizationId, organizationId),
          gt(settlementOrders.createdAt, since),
          notInArray(settlementOrders.status, [...UNCOUNTED_ORDER_STATUSES]),
          user ? sql`lower(${settlementQuotes.sourceAddress}) = ${user}` : undefined,
        ),
      ),
    db
      .select({ usd: brebPayouts.usdValue, at: brebPayouts.createdAt })
      .from(brebPayouts)
      .where(
        and(
          eq(brebPayouts.organizationId, organizationId),
          gt(brebPayouts.createdAt, since),
          notInArray(brebPayouts.status, [...UNCOUNTED_PAYOUT_STATUSES]),
          user ? sql`lower(${brebPayouts.userAddress}) = ${user}` : undefined,
        ),
      ),
  ]);
  return [...orders, ...payouts];
}
