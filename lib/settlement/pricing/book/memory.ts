import type { ProviderFailure } from "../../../kernel/provider-failure";

/** An answer read back: the parsed price, or the refusal to throw again. */
export type Remembered = { price: unknown } | { refused: ProviderFailure };

/**
 * The isolate's copy of the entries it read, each used while younger than its source's maximum age
 * (the same bound as the shared book's, so the copy is never staler than the book may be), and the
 * reads in flight, so a burst of quotes in one isolate waits on one read or refresh.
 */
export interface PriceBookMemory {
  entries: Map<string, { remembered: Remembered; fetchedAt: number }>;
  pending: Map<string, Promise<{ remembered: Remembered; fetchedAt: number }>>;
}

export function priceBookMemory(): PriceBookMemory {
  return { entries: new Map(), pending: new Map() };
}
