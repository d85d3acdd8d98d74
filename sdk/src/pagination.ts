/** A page of a cursor-paged listing: one array of items and the cursor of the next page. */
interface Listing {
  nextCursor: string | null;
}

/** The type of the items of a page (the one array field of a listing). */
export type ItemOf<TPage> = {
  [K in keyof TPage]-?: TPage[K] extends ReadonlyArray<infer Item> ? Item : never;
}[keyof TPage];

/** The fields of a page that hold arrays. */
export type ArrayFieldOf<TPage> = {
  [K in keyof TPage]-?: TPage[K] extends ReadonlyArray<unknown> ? K : never;
}[keyof TPage];

type PageRequest<TQuery, TPage> = (options: {
  query: TQuery & { cursor?: string };
}) => Promise<{ data: TPage }>;

/**
 * Every item of a cursor-paged listing, page after page, as an async iterator:
 * `for await (const order of paginate((o) => copm.listSettlementOrders(o), { status: "DELIVERED" }))`.
 * A page is asked for only when the previous one is used up; the iteration ends with the page whose
 * `nextCursor` is null. The items are the page's one array field, or `field` when it has several
 * (a statement's `lines`).
 */
export function paginate<const TQuery extends object, TPage extends Listing>(
  list: PageRequest<TQuery, TPage>,
  query?: TQuery & { cursor?: string },
): AsyncGenerator<ItemOf<TPage>, void, undefined>;
export function paginate<const TQuery extends object, TPage extends Listing, K extends keyof TPage>(
  list: PageRequest<TQuery, TPage>,
  query: TQuery & { cursor?: string },
  field: K & ArrayFieldOf<TPage>,
): AsyncGenerator<TPage[K] extends ReadonlyArray<infer Item> ? Item : never, void, undefined>;
export async function* paginate<const TQuery extends object, TPage extends Listing>(
  list: PageRequest<TQuery, TPage>,
  query: TQuery & { cursor?: string } = {} as TQuery,
  field?: keyof TPage,
): AsyncGenerator<unknown, void, undefined> {
  let cursor = query.cursor;
  for (;;) {
    const { data } = await list({ query: { ...query, ...(cursor === undefined ? {} : { cursor }) } });
    const items = (
      field === undefined ? Object.values(data as object).find((value) => Array.isArray(value)) : data[field]
    ) as unknown[] | undefined;
    for (const item of items ?? []) yield item;
    if (!data.nextCursor) return;
    // A page naming itself as the next one would be read forever.
    if (data.nextCursor === cursor)
      throw new Error(`the listing answered its own cursor ${cursor} as the next one`);
    cursor = data.nextCursor;
  }
}
