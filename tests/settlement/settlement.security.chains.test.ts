import { afterAll, beforeAll } from "vitest";
import { route as createOrderRoute } from "../../functions/settlement/create-order";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import { createOrder, createQuote, DESTINATION_ADDRESS, SOURCE_ADDRESS } from "../harness/settlement";
import type { Tenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true });
}, 60_000);
afterAll(() => h.close());

async function orderOf(owner: Tenant): Promise<string> {
  const quote = await createQuote(h, owner);
  const response = await createOrder(h, owner, quote.quoteId, `key-${quote.quoteId}`);
  return (await bodyOf(response, createOrderRoute, 201)).orderId;
}

describePartnerRouteSecurity("POST /api/integrations/settlements/quotes", () => h, {
  method: "POST",
  path: () => "/api/integrations/settlements/quotes",
  body: { sendAmountUsdc: "100", sourceAddress: SOURCE_ADDRESS, destinationAddress: DESTINATION_ADDRESS },
});

describePartnerRouteSecurity("POST /api/integrations/settlements/orders", () => h, {
  method: "POST",
  path: () => "/api/integrations/settlements/orders",
  body: { quoteId: "qt_00000000000000000000000000" },
});

describePartnerRouteSecurity("GET /api/integrations/settlements/orders/{orderId}", () => h, {
  method: "GET",
  path: async (owner) => `/api/integrations/settlements/orders/${await orderOf(owner)}`,
  missingPath: "/api/integrations/settlements/orders/ord_00000000000000000000000000",
});
