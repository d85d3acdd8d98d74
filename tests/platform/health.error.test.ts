import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createHarness } from "../harness/app";

/** A loopback port with nothing listening: connections are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("GET /health when parts are down", () => {
  it("answers 503 when the database is unreachable", async () => {
    const h = await createHarness();
    await h.database.close();
    const response = await h.app.request("/health");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "down", checks: { database: { status: "down" } } });
  });

  it("reports a configured chain that does not answer as down, and the service as degraded", async () => {
    const port = await closedPort();
    const h = await createHarness({ env: { SOURCE_RPC_URL: `http://127.0.0.1:${port}` } });
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
