import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as getKyc } from "../../functions/identity/get-kyc";
import { route as sendOtp } from "../../functions/identity/send-otp";
import { route as createApiKey } from "../../functions/tenancy/admin-create-api-key";
import { route as createIntegration } from "../../functions/tenancy/admin-create-integration";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import {
  identityRequest,
  kycOf,
  OTHER_USER,
  sendCode,
  USER,
  verifyCode,
  walletSessionOf,
} from "../harness/identity";
import { describePartnerRouteSecurity } from "../harness/partner-security";
import { adminRequest, createTenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true });
});
afterAll(() => h.close());

describePartnerRouteSecurity("POST /api/integrations/breb/kyc/otp/send", () => h, {
  method: "POST",
  path: () => "/api/integrations/breb/kyc/otp/send",
  body: { email: "ana@example.com", userAddress: USER },
});
describePartnerRouteSecurity("POST /api/integrations/breb/kyc/otp/verify", () => h, {
  method: "POST",
  path: () => "/api/integrations/breb/kyc/otp/verify",
  body: { email: "ana@example.com", userAddress: USER, code: "123456" },
});
describePartnerRouteSecurity("GET /api/integrations/breb/kyc", () => h, {
  method: "GET",
  path: () => `/api/integrations/breb/kyc?userAddress=${USER}`,
});

describe("BRE-B identity across tenants", () => {
  it("shows another organization's user as not_started and never lets it use that user's code", async () => {
    const owner = await createTenant(h);
    const stranger = await createTenant(h, "Stranger");
    await sendCode(h, owner, "owned@example.com");
    const stolen = await verifyCode(h, stranger, "owned@example.com", "123456");
    expect(stolen.status).toBe(404);
    expect((await errorOf(stolen)).code).toBe("OTP_NOT_FOUND");
    await verifyCode(h, owner, "owned@example.com", "123456");
    expect(await kycOf(h, owner)).toEqual({ status: "approved" });
    expect(await kycOf(h, stranger)).toEqual({ status: "not_started" });
  });

  it("keeps a second integration of the same organization apart too", async () => {
    const owner = await createTenant(h);
    const created = await adminRequest(h, `/admin/organizations/${owner.organizationId}/integrations`, {
      method: "POST",
      body: { name: "Second app" },
    });
    const { integration } = await bodyOf(created, createIntegration, 201);
    const issued = await adminRequest(h, `/admin/integrations/${integration.id}/keys`, {
      method: "POST",
      body: {},
    });
    const { apiKey } = await bodyOf(issued, createApiKey, 201);
    const second = { organizationId: owner.organizationId, integrationId: integration.id, apiKey };
    await sendCode(h, owner, "split@example.com", OTHER_USER);
    await verifyCode(h, owner, "split@example.com", "123456", OTHER_USER);
    expect(await kycOf(h, second, OTHER_USER)).toEqual({ status: "not_started" });
  });
});

describe("the miniapp prefix /api/breb (mock mode)", () => {
  it("answers 404 without MINIAPP_INTEGRATION_ID, even in mock mode", async () => {
    const response = await identityRequest(h, "miniapp", "/kyc/otp/send", {
      body: { email: "ana@example.com", userAddress: USER },
    });
    expect(response.status).toBe(404);
  });

  it("serves the same routes without a key, as the configured integration only, limited per IP", async () => {
    const miniapp = await createHarness({ chains: true, env: { RATE_LIMIT_PER_IP_PER_MINUTE: "8" } });
    try {
      const app = await createTenant(miniapp, "Miniapp");
      const partner = await createTenant(miniapp, "Partner");
      // What `npm run dev` sets once it has made the miniapp's integration.
      Object.assign(miniapp.deps.config, { MINIAPP_INTEGRATION_ID: app.integrationId });

      const sent = await sendCode(miniapp, "miniapp", "mini@example.com");
      expect((await bodyOf(sent, sendOtp, 200)).debugCode).toBe("123456");
      expect((await verifyCode(miniapp, "miniapp", "mini@example.com", "123456")).status).toBe(200);
      expect(await kycOf(miniapp, "miniapp")).toEqual({ status: "approved" });
      // The same record the integration's key reads; another integration sees nothing.
      expect(await kycOf(miniapp, app)).toEqual({ status: "approved" });
      expect(await kycOf(miniapp, partner)).toEqual({ status: "not_started" });
      // A key is not needed there, and a key for another integration does not change who it acts as.
      const withKey = await identityRequest(miniapp, "miniapp", `/kyc?userAddress=${USER}`, {
        headers: {
          authorization: `Bearer ${partner.apiKey}`,
          "wallet-session": await walletSessionOf(miniapp, "miniapp", USER),
        },
      });
      expect((await bodyOf(withKey, getKyc, 200)).kyc.status).toBe("approved");
      // Eight requests from this client's address so far (two of them the admin calls above, two the
      // wallet's sign-in): the ninth in the minute is refused.
      const limited = await identityRequest(miniapp, "miniapp", `/kyc?userAddress=${USER}`);
      expect(limited.status).toBe(429);
      expect((await errorOf(limited)).code).toBe("RATE_LIMITED");
    } finally {
      await miniapp.close();
    }
  });

  it("answers 404 when MINIAPP_INTEGRATION_ID names no integration", async () => {
    const miniapp = await createHarness({
      env: { MINIAPP_INTEGRATION_ID: "int_01KAZ6XQ4R8N2M5V7B9C1D3F5G" },
    });
    try {
      const response = await identityRequest(miniapp, "miniapp", `/kyc?userAddress=${USER}`);
      expect(response.status).toBe(404);
      expect(miniapp.logLines).toContainEqual(
        expect.objectContaining({ msg: "MINIAPP_INTEGRATION_ID names no integration" }),
      );
    } finally {
      await miniapp.close();
    }
  });
});
