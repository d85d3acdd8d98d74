import { describe, expectTypeOf, it } from "vitest";
import type { GetBrebKycQuery } from "../../functions/identity/get-kyc";
import type { CreateBrebPayoutRequest } from "../../functions/payouts/create-payout";
import type {
  CreateSettlementOrderRequest,
  CreateSettlementOrderResponse,
} from "../../functions/settlement/create-order";
import type { CreateSettlementQuoteRequest } from "../../functions/settlement/create-quote";
import type { GetSettlementOrderResponse } from "../../functions/settlement/get-order";
import type { ListSwapsQuery, ListSwapsResponse } from "../../functions/swaps/list-swaps";
import type { OrderStatus, TimelineKind } from "../../lib/settlement";

// Checked by `npm run typecheck` (vitest runs these as no-ops): the types a route file exports are
// its schemas' own, never `never` or `any`, so callers and tests can lean on them.
describe("the types route files export", () => {
  it("are the schemas' request and response shapes", () => {
    expectTypeOf<CreateSettlementOrderRequest>().toEqualTypeOf<{ quoteId: string; reference?: string }>();
    expectTypeOf<CreateSettlementOrderResponse["status"]>().toEqualTypeOf<OrderStatus>();
    expectTypeOf<GetSettlementOrderResponse["timeline"][number]["kind"]>().toEqualTypeOf<TimelineKind>();
    expectTypeOf<CreateSettlementQuoteRequest>()
      .toHaveProperty("sendAmountUsdc")
      .toEqualTypeOf<string | undefined>();
    expectTypeOf<CreateSettlementQuoteRequest>()
      .toHaveProperty("receiveAmountCop")
      .toEqualTypeOf<string | undefined>();
    expectTypeOf<CreateBrebPayoutRequest>().not.toBeNever();
    expectTypeOf<CreateBrebPayoutRequest>().not.toBeAny();
    expectTypeOf<ListSwapsQuery>().not.toBeNever();
    expectTypeOf<ListSwapsResponse>().toHaveProperty("swaps");
    expectTypeOf<GetBrebKycQuery>().toHaveProperty("userAddress").toEqualTypeOf<string>();
  });
});
