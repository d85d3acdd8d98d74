/**
 * Type tests of the SDK, checked by `npm run typecheck` (never run): every `@ts-expect-error` below
 * must be an error, or the typecheck fails. A wrong field, a missing one, a wrong type or a wrong
 * read of an answer does not compile.
 */
import {
  brebMiniapp,
  type Copm,
  type CopmApiError,
  paginate,
  type SettlementOrderSummary,
} from "../../sdk/src";

declare const copm: Copm;

export async function typeTests(): Promise<void> {
  const address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
  const { data: quote } = await copm.createSettlementQuote({
    body: { sendAmountUsdc: "100", sourceAddress: address, destinationAddress: address },
  });
  const id: string = quote.quoteId;

  const to = { sourceAddress: address, destinationAddress: address };
  // @ts-expect-error: a field the quote request does not have
  await copm.createSettlementQuote({ body: { ...to, sendAmountUsdc: "1", amount: "1" } });
  // @ts-expect-error: amounts are decimal strings, never numbers
  await copm.createSettlementQuote({ body: { ...to, sendAmountUsdc: 100 } });
  // @ts-expect-error: destinationAddress is required
  await copm.createSettlementQuote({ body: { sendAmountUsdc: "1", sourceAddress: address } });

  // The idempotency key is optional on a creation (the client makes one), and typed when given.
  await copm.createSettlementOrder({ body: { quoteId: id } });
  await copm.createSettlementOrder({ body: { quoteId: id }, headers: { "idempotency-key": "k-1" } });
  // @ts-expect-error: a key is a string
  await copm.createSettlementOrder({ body: { quoteId: id }, headers: { "idempotency-key": 1 } });
  // @ts-expect-error: the order request names its quote as quoteId
  await copm.createSettlementOrder({ body: { quote: id } });

  const { data: order } = await copm.getSettlementOrder({ path: { orderId: id } });
  const status: string = order.status;
  // @ts-expect-error: an order has no such field
  order.amountUsdc;
  // @ts-expect-error: the path parameter is orderId
  await copm.getSettlementOrder({ path: { id } });

  // A listing's items are typed, through each and through paginate.
  for await (const item of copm.each.settlementOrders({ status: "DELIVERED" })) {
    const read: SettlementOrderSummary = item;
    // @ts-expect-error: no such field on an order
    read.nope;
  }
  // @ts-expect-error: listings filter by the documented query parameters only
  copm.each.settlementOrders({ colour: "red" });
  // @ts-expect-error: no such status
  copm.each.settlementOrders({ status: "PAID" });
  // @ts-expect-error: the swaps listing needs its integration and since
  copm.each.swaps({});
  for await (const item of paginate((options) => copm.listSettlementOrders(options), {
    status: "DELIVERED",
  })) {
    const read: SettlementOrderSummary = item;
    void read;
  }

  const failure = {} as CopmApiError;
  const retry: boolean = failure.retryable;
  // @ts-expect-error: codes are the documented ones
  const code: "NOT_A_CODE" = failure.code;
  void [status, retry, code];

  // A statement's lines are its items, typed; its period is required.
  for await (const line of copm.each.statementLines({
    from: "2026-11-01T00:00:00Z",
    to: "2026-11-02T00:00:00Z",
  })) {
    const running: string = line.runningTotal;
    void running;
    // @ts-expect-error: a line has no balance field; it has runningTotal
    line.balance;
  }
  // @ts-expect-error: a statement needs its period
  copm.each.statementLines({ from: "2026-11-01T00:00:00Z" });

  // The miniapp's client has the BRE-B operations, typed alike, and nothing else.
  const miniapp = brebMiniapp({ baseUrl: "http://127.0.0.1:8787" });
  await miniapp.getBrebPayout({ path: { payoutId: "pay_1" } });
  // @ts-expect-error: settlements are for partners, with their key
  await miniapp.createSettlementQuote({ body: {} });
  // @ts-expect-error: no key on the miniapp's client
  brebMiniapp({ baseUrl: "http://127.0.0.1:8787", apiKey: "copm_test_x" });
}
