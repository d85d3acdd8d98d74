import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { priceBook } from "../../../../schema";
import { ProviderFailure, type ProviderFailureKind } from "../../../kernel/provider-failure";
import type { SettlementServices } from "../../context";
import type { Remembered } from "./memory";
import { type AnswerOf, KEPT_REFUSALS, PRICE_SOURCES, type PriceSource, type RequestOf } from "./sources";

/** An answer as the book keeps it: a price (amounts as decimal text), or a definite refusal. */
type StoredAnswer =
  | { price: unknown }
  | { refused: { kind: ProviderFailureKind; provider: string; message: string } };

/** How often a quote looks again while another refreshes the entry it needs. */
const WAIT_POLL_MS = 25;

/**
 * The source's answer to `request`, no older than the source's maximum age: from the isolate's
 * copy, else the shared book, else a refresh this caller makes while holding the entry's lease (one
 * refresh at a time per entry, across every isolate; the others wait for it). A kept refusal is
 * thrown again as the ProviderFailure it was; a source that does not answer throws, and nothing is kept.
 */
export async function bookAnswer<S extends PriceSource>(
  ctx: SettlementServices,
  source: S,
  request: RequestOf<S>,
): Promise<AnswerOf<S>> {
  const memory = ctx.providers.prices;
  const key = `${source}:${JSON.stringify(jsonOf(request))}`;
  const maxAgeMs = PRICE_SOURCES[source].maxAgeMs;
  const known = memory.entries.get(key);
  let entry = known && ctx.clock.now().getTime() - known.fetchedAt < maxAgeMs ? known : undefined;
  if (!entry) {
    let pending = memory.pending.get(key);
    if (!pending) {
      pending = fromBook(ctx, key, source, request).finally(() => memory.pending.delete(key));
      memory.pending.set(key, pending);
    }
    entry = await pending;
    memory.entries.set(key, entry);
  }
  if ("refused" in entry.remembered) throw entry.remembered.refused;
  return entry.remembered.price as AnswerOf<S>;
}

async function fromBook<S extends PriceSource>(
  ctx: SettlementServices,
  key: string,
  source: S,
  request: RequestOf<S>,
): Promise<{ remembered: Remembered; fetchedAt: number }> {
  const { maxAgeMs } = PRICE_SOURCES[source];
  const leaseMs = refreshLeaseMs(ctx);
  // Real time, not the service clock: this bounds a wait on another process, which a test's
  // frozen clock would make endless; the lease itself is on the service clock.
  const waitUntil = performance.now() + leaseMs;
  for (;;) {
    const now = ctx.clock.now();
    const freshAfter = new Date(now.getTime() - maxAgeMs);
    const [row] = await ctx.db
      .select({ answer: priceBook.answer, fetchedAt: priceBook.fetchedAt })
      .from(priceBook)
      .where(eq(priceBook.key, key));
    if (row?.answer && row.fetchedAt && row.fetchedAt > freshAfter) {
      return {
        remembered: rememberedOf(source, row.answer as StoredAnswer),
        fetchedAt: row.fetchedAt.getTime(),
      };
    }
    if (await takeLease(ctx, key, source, request, { now, freshAfter, leaseMs, demanded: true })) {
      return refreshEntry(ctx, key, source, request, now);
    }
    if (performance.now() > waitUntil) {
      throw new ProviderFailure(
        "unavailable",
        source,
        "another refresh of this price did not finish in time",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

/** A refresh holds its entry for two provider timeouts (a budget statement and the call itself). */
export function refreshLeaseMs(ctx: SettlementServices): number {
  return 2 * ctx.config.PROVIDER_TIMEOUT_MS;
}

/**
 * Takes the entry's lease when its answer is stale and nobody holds it (creating the entry the first
 * time): true when this caller is now the one to refresh it. A quote's refresh marks the entry
 * demanded, which keeps the cron refreshing it for a while; the cron's own does not.
 */
export async function takeLease(
  ctx: SettlementServices,
  key: string,
  source: PriceSource,
  request: unknown,
  at: { now: Date; freshAfter: Date; leaseMs: number; demanded: boolean },
): Promise<boolean> {
  const refreshingUntil = new Date(at.now.getTime() + at.leaseMs);
  const [leased] = await ctx.db
    .insert(priceBook)
    .values({ key, source, request: jsonOf(request), refreshingUntil, demandedAt: at.now })
    .onConflictDoUpdate({
      target: priceBook.key,
      set: {
        refreshingUntil,
        ...(at.demanded ? { demandedAt: sql`excluded.demanded_at` } : {}),
      },
      setWhere: and(
        or(isNull(priceBook.refreshingUntil), lte(priceBook.refreshingUntil, at.now)),
        or(isNull(priceBook.fetchedAt), lte(priceBook.fetchedAt, at.freshAfter)),
      ),
    })
    .returning({ key: priceBook.key });
  return leased !== undefined;
}

/**
 * Asks the source, keeps its answer (or its definite refusal) as of `askedAt`, and gives the lease
 * back. A source that does not answer gives the lease back and throws; the entry keeps its last answer.
 */
export async function refreshEntry<S extends PriceSource>(
  ctx: SettlementServices,
  key: string,
  source: S,
  request: RequestOf<S>,
  askedAt: Date,
): Promise<{ remembered: Remembered; fetchedAt: number }> {
  let stored: StoredAnswer;
  try {
    stored = { price: jsonOf(await PRICE_SOURCES[source].ask(ctx, request)) };
  } catch (error) {
    if (!(error instanceof ProviderFailure) || !KEPT_REFUSALS.includes(error.kind)) {
      await ctx.db.update(priceBook).set({ refreshingUntil: null }).where(eq(priceBook.key, key));
      throw error;
    }
    stored = { refused: { kind: error.kind, provider: error.provider, message: error.message } };
  }
  await ctx.db
    .update(priceBook)
    .set({ answer: stored, fetchedAt: askedAt, refreshingUntil: null })
    .where(eq(priceBook.key, key));
  return { remembered: rememberedOf(source, stored), fetchedAt: askedAt.getTime() };
}

function rememberedOf(source: PriceSource, stored: StoredAnswer): Remembered {
  if ("refused" in stored) {
    const { kind, provider, message } = stored.refused;
    return { refused: new ProviderFailure(kind, provider, message) };
  }
  return { price: PRICE_SOURCES[source].answer.parse(stored.price) };
}

/** JSON with bigints as decimal text and keys sorted, so one question is always one key. */
function jsonOf(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return /^0x[0-9a-fA-F]+$/.test(value) ? value.toLowerCase() : value;
  if (Array.isArray(value)) return value.map(jsonOf);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, inner]) => inner !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, inner]) => [name, jsonOf(inner)]),
    );
  }
  return value;
}
