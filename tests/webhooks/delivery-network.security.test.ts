import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../harness/app";
import { freePort } from "../harness/free-port";
import { createTenant } from "../harness/tenants";
import { deliveriesOf, sendTestEvent, setEndpoint } from "../harness/webhooks";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { WEBHOOK_TIMEOUT_MS: "1000" } });
});
afterAll(() => h.close());

/** A TCP port that accepts and at once resets every connection: an open port with no web server. */
async function resettingPort(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return { port: address.port, server };
}

/** What the partner's deliveries listing shows of the first attempt to `url`. */
async function firstAttemptError(url: string): Promise<string | null> {
  const tenant = await createTenant(h);
  await setEndpoint(h, tenant, url);
  await sendTestEvent(h, tenant);
  await h.jobs.drain();
  const [delivery] = await deliveriesOf(h, tenant);
  expect(delivery?.attemptLog).toHaveLength(1);
  return delivery?.attemptLog[0]?.error ?? null;
}

describe("what partners see of a delivery that could not connect (issue 20, finding 5)", () => {
  it("is the same 'connection failed' for a closed port and an open one that resets, so the log is no port scanner", async () => {
    const open = await resettingPort();
    try {
      const closed = await firstAttemptError(`http://127.0.0.1:${await freePort()}/hook`);
      const reset = await firstAttemptError(`http://127.0.0.1:${open.port}/hook`);
      expect(closed).toBe("connection failed");
      expect(reset).toBe(closed);
    } finally {
      await new Promise((resolve) => open.server.close(resolve));
    }
  });

  it("refuses, before connecting, a public-looking name that resolves to a private address, telling the operator why and the partner only 'connection failed'", async () => {
    const resolve = h.deps.providers.hosts;
    h.deps.providers.hosts = async (hostname) =>
      hostname === "hooks.partner-behind-split-dns.example" ? ["10.20.30.40"] : resolve(hostname);
    try {
      h.logLines.length = 0;
      const error = await firstAttemptError("https://hooks.partner-behind-split-dns.example/copm");
      expect(error).toBe("connection failed");
      expect(h.logLines).toContainEqual(
        expect.objectContaining({
          msg: "webhook attempt failed",
          cause: "the host resolves to a private or reserved address (private)",
        }),
      );
    } finally {
      h.deps.providers.hosts = resolve;
    }
  });
});
