import type { Caller } from "./caller";

/**
 * How long an isolate keeps a resolved key (docs/tenancy.md, "Keys"): a busy key's requests skip
 * the lookup meanwhile. Revoking a key, or changing its organization's settings, evicts it at once
 * in the isolate that made the change; another isolate may go on accepting it until its entry is
 * this old.
 */
export const CALLER_CACHE_MS = 10_000;

/** Entries kept at most; the oldest goes first. */
const MAX_ENTRIES = 10_000;

export interface CachedCaller {
  caller: Caller;
  /** The key's last use as the service last wrote it (refreshed at most once a minute). */
  lastUsedAt: Date | null;
  cachedAt: number;
}

/** Resolved keys by mode and hash (never the key itself), for one app. */
export class CallerCache {
  readonly #entries = new Map<string, CachedCaller>();
  #evictions = 0;

  /** Raised by every eviction: a lookup that began before one must not put back what it read. */
  get evictions(): number {
    return this.#evictions;
  }

  get(mode: string, hash: string, now: Date): CachedCaller | undefined {
    const key = `${mode}:${hash}`;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (now.getTime() - entry.cachedAt >= CALLER_CACHE_MS || now.getTime() < entry.cachedAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Keeps `entry`, unless an eviction happened since `lookedUpAt` (this.evictions when the lookup began). */
  set(mode: string, hash: string, entry: CachedCaller, lookedUpAt = this.#evictions): void {
    if (lookedUpAt !== this.#evictions) return;
    const key = `${mode}:${hash}`;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  evict(matches: (caller: Caller) => boolean): void {
    this.#evictions += 1;
    for (const [key, entry] of this.#entries) if (matches(entry.caller)) this.#entries.delete(key);
  }
}

// One cache per app: its configuration object is made once per isolate (and once per test harness).
const caches = new WeakMap<object, CallerCache>();

export function callerCacheOf(ctx: { config: object }): CallerCache {
  let cache = caches.get(ctx.config);
  if (!cache) {
    cache = new CallerCache();
    caches.set(ctx.config, cache);
  }
  return cache;
}
