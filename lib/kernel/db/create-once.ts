import { ApiError, type ApiErrorOptions } from "../errors/api-error";

/**
 * A create under an `Idempotency-Key` that orders a quote, as settlement orders and payouts make
 * theirs (docs/platform.md, "Idempotency"). The caller reads, in one round trip, the row already under
 * its key, the quote, and the row that already used the quote; then:
 * - a row under the key answers again, byte for byte, when the request is the same (as Stripe
 *   compares the request), and is IDEMPOTENCY_CONFLICT otherwise;
 * - else the quote must be the organization's (QUOTE_NOT_FOUND), unused (QUOTE_ALREADY_USED) and
 *   unexpired (QUOTE_EXPIRED);
 * - else the row is made. The database's unique indexes (one row per quote, one per key in an
 *   organization) settle races: a request whose insert lost reads the row under its key and answers
 *   as above, or the quote went to another key (QUOTE_ALREADY_USED).
 */
export interface CreateOnce<Row, Quote> {
  found: { quote: Quote | null; underKey: Row | null; ofQuote: unknown } | undefined;
  /** Whether the row under the key was made by this same request. */
  sameRequest(existing: Row): boolean;
  /** The answer a row was created with, kept as text. */
  answerOf(existing: Row): string;
  expired(quote: Quote): boolean;
  /** Checks what else the create needs, inserts, and answers; undefined when another insert won. */
  create(quote: Quote): Promise<string | undefined>;
  /** The row under the key after a lost insert, if the winner was under this key. */
  underKeyNow(): Promise<Row | undefined>;
  /** What the errors say of where the flow was. */
  stage?: ApiErrorOptions;
}

export async function createOnce<Row, Quote>(spec: CreateOnce<Row, Quote>): Promise<string> {
  const replay = (existing: Row) => {
    if (!spec.sameRequest(existing)) throw new ApiError("IDEMPOTENCY_CONFLICT", spec.stage);
    return spec.answerOf(existing);
  };
  const { found } = spec;
  if (found?.underKey) return replay(found.underKey);
  const quote = found?.quote;
  if (!quote) throw new ApiError("QUOTE_NOT_FOUND", spec.stage);
  if (found.ofQuote) throw new ApiError("QUOTE_ALREADY_USED", spec.stage);
  if (spec.expired(quote)) throw new ApiError("QUOTE_EXPIRED", spec.stage);
  const created = await spec.create(quote);
  if (created !== undefined) return created;
  const underKey = await spec.underKeyNow();
  if (underKey) return replay(underKey);
  throw new ApiError("QUOTE_ALREADY_USED", spec.stage);
}
