import { describe, expect, it } from "vitest";
import { createHarness } from "../harness/app";
import { freePort } from "../harness/free-port";
import { liveEnv, UNUSED_IDENTITY_PROVIDERS, UNUSED_PAYOUT_PROVIDER } from "../harness/identity";

describe("GET /health when parts are down", () => {
  it("answers 503 when the database is unreachable", async () => {
    const h = await createHarness();
    await h.database.close();
    const response = await h.app.request("/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "down", checks: { database: { status: "down" } } });
  });

  it("reports a configured chain that does not answer as down, and the service as degraded", async () => {
    const port = await freePort(); // nothing listens there: connections are refused at once
    const h = await createHarness({
      // Live mode: mock mode runs only on the local sandbox chains.
      env: {
        ...liveEnv(),
        ...UNUSED_IDENTITY_PROVIDERS,
        ...UNUSED_PAYOUT_PROVIDER,
        SOURCE_RPC_URL: `http://127.0.0.1:${port}`,
      },
    });
    try {
      const response = await h.app.request("/health");
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: "degraded",
        checks: { database: { status: "up" }, chains: [{ role: "source", status: "down" }] },
      });
    } finally {
      await h.close();
    }
  });
});
