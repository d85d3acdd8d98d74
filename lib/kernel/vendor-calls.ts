import { eq, sql } from "drizzle-orm";
import { vendorCalls } from "../../schema";
import type { Clock } from "./clock";
import type { Database } from "./db/database";
import { ProviderFailure } from "./provider-failure";

/**
 * What the service as a whole may ask of one outside party: at most `calls` in each window of
 * `windowMs`, whatever number of orders poll it (Circle blocks a caller for five minutes past 35
 * requests a second; LI.FI counts requests per minute per key).
 */
export interface VendorBudget {
  vendor: string;
  calls: number;
  windowMs: number;
}

/** A success is written down at most this often, so a healthy vendor costs one statement a call. */
const SUCCESS_NOTE_EVERY_MS = 30_000;

/**
 * One call to an outside party within the service's shared budget (one statement before it: the
 * window's count and any block, on the `vendor_calls` row every job shares). A call the budget or a
 * block does not admit is not made: it fails `unavailable` with the time until it would be, so the
 * caller looks again then. A failure that carries `retryAfterMs` (a 429) blocks every caller of the
 * vendor until then; every outcome is kept as the vendor's last success or last error.
 */
export async function callVendor<T>(
  ctx: { db: Database; clock: Clock },
  budget: VendorBudget,
  work: () => Promise<T>,
): Promise<T> {
  const { vendor, calls, windowMs } = budget;
  const now = ctx.clock.now();
  const windowStart = new Date(now.getTime() - (now.getTime() % windowMs));
  const [row] = await ctx.db
    .insert(vendorCalls)
    .values({ vendor, windowStart, windowCount: 1 })
    .onConflictDoUpdate({
      target: vendorCalls.vendor,
      set: {
        windowCount: sql`case when ${vendorCalls.windowStart} >= excluded.window_start then ${vendorCalls.windowCount} + 1 else 1 end`,
        windowStart: sql`greatest(${vendorCalls.windowStart}, excluded.window_start)`,
      },
    })
    .returning({
      windowCount: vendorCalls.windowCount,
      blockedUntil: vendorCalls.blockedUntil,
      lastSuccessAt: vendorCalls.lastSuccessAt,
      lastErrorAt: vendorCalls.lastErrorAt,
    });
  if (!row) throw new Error(`no vendor_calls row for ${vendor}`);
  if (row.blockedUntil && row.blockedUntil > now) {
    throw new ProviderFailure(
      "unavailable",
      vendor,
      `${vendor} asked callers to stay away until ${row.blockedUntil.toISOString()}`,
      { retryAfterMs: row.blockedUntil.getTime() - now.getTime() },
    );
  }
  if (row.windowCount > calls) {
    throw new ProviderFailure(
      "unavailable",
      vendor,
      `the service's budget of ${calls} calls to ${vendor} per ${windowMs} ms is spent`,
      { retryAfterMs: windowStart.getTime() + windowMs - now.getTime() },
    );
  }

  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (error instanceof ProviderFailure) await noteFailure(ctx, vendor, error);
    throw error;
  }
  const quiet = row.lastSuccessAt && now.getTime() - row.lastSuccessAt.getTime() < SUCCESS_NOTE_EVERY_MS;
  const recovered = row.lastErrorAt && (!row.lastSuccessAt || row.lastErrorAt >= row.lastSuccessAt);
  if (!quiet || recovered) {
    await ctx.db.update(vendorCalls).set({ lastSuccessAt: now }).where(eq(vendorCalls.vendor, vendor));
  }
  return result;
}

async function noteFailure(
  ctx: { db: Database; clock: Clock },
  vendor: string,
  failure: ProviderFailure,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .update(vendorCalls)
    .set({
      lastErrorAt: now,
      lastError: failure.message.slice(0, 500),
      ...(failure.retryAfterMs === undefined
        ? {}
        : { blockedUntil: new Date(now.getTime() + failure.retryAfterMs) }),
    })
    .where(eq(vendorCalls.vendor, vendor));
}
