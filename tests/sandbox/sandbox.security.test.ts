import { afterAll, beforeAll } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { describePartnerRouteSecurity } from "../harness/partner-security";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describePartnerRouteSecurity("GET /api/integrations/sandbox/network", () => h, {
  method: "GET",
  path: () => "/api/integrations/sandbox/network",
});

describePartnerRouteSecurity("POST /api/integrations/sandbox/faucet", () => h, {
  method: "POST",
  path: () => "/api/integrations/sandbox/faucet",
  body: {
    address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    chainRole: "source",
    token: "USDC",
    amount: "1",
  },
});
