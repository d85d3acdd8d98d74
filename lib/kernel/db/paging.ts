/**
 * A page of a listing fetched with `limit + 1` rows: the page, and the cursor of the next page (the
 * last row's key), null when the extra row did not come back.
 */
export function pageOf<Row>(
  rows: readonly Row[],
  limit: number,
  keyOf: (row: Row) => string,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? keyOf(last) : null };
}
