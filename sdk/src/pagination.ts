/** A page of a cursor-paged listing: one array of items and the cursor of the next page. */
interface Listing {
  nextCursor: string | null;
}

/** The type of the items of a page (the one array field of a listing). */
export type ItemOf<TPage> = {
  [K in keyof TPage]-?: TPage[K] extends ReadonlyArray<infer Item> ? Item : never;
}[keyof TPage];

/**
 * Every item of a cursor-paged listing, page after page, as an async iterator:
 * `for await (const order of paginate((o) => copm.listSettlementOrders(o), { status: "DELIVERED" }))`.
 * A page is asked for only when the previous one is used up; the iteration ends with the page whose
 * `nextCursor` is null.
 */
export async function* paginate<const TQuery extends object, TPage extends Listing>(
  list: (options: { query: TQuery & { cursor?: string } }) => Promise<{ data: TPage }>,
  query: TQuery & { cursor?: string } = {} as TQuery,
): AsyncGenerator<ItemOf<TPage>, void, undefined> {
  let cursor = query.cursor;
  for (;;) {
    const { data } = await list({ query: { ...query, ...(cursor === undefined ? {} : { cursor }) } });
    const items = Object.values(data as object).find((value) => Array.isArray(value)) as
      | ItemOf<TPage>[]
      | undefined;
    for (const item of items ?? []) yield item;
    if (!data.nextCursor) return;
    // A page naming itself as the next one would be read forever.
    if (data.nextCursor === cursor)
      throw new Error(`the listing answered its own cursor ${cursor} as the next one`);
    cursor = data.nextCursor;
  }
}
