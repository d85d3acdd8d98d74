import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeHostResolver } from "../../lib/webhooks/host-resolver";
import { nodeWebhookPost } from "../../lib/webhooks/post-node";
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
    const listener = await countingListener();
    const post = h.deps.providers.webhookPost;
    h.deps.providers.webhookPost = nodeWebhookPost(async (hostname) =>
      hostname === "hooks.partner-behind-split-dns.example"
        ? ["10.20.30.40", "127.0.0.1"]
        : runtimeHostResolver(hostname),
    );
    try {
      h.logLines.length = 0;
      const error = await firstAttemptError(
        `https://hooks.partner-behind-split-dns.example:${listener.port}/copm`,
      );
      expect(error).toBe("connection failed");
      expect(h.logLines).toContainEqual(
        expect.objectContaining({
          msg: "webhook attempt failed",
          cause: "the host resolves to a private or reserved address (private)",
        }),
      );
      expect(listener.connections()).toBe(0);
    } finally {
      h.deps.providers.webhookPost = post;
      await listener.close();
    }
  });

  it("connects only to the address it checked: a name that answers public first and private next (DNS rebinding) never reaches the private one", async () => {
    const listener = await countingListener();
    const answers: string[][] = [["93.184.216.34"], ["127.0.0.1"]];
    let lookups = 0;
    const post = h.deps.providers.webhookPost;
    h.deps.providers.webhookPost = nodeWebhookPost(async () => answers[Math.min(lookups++, 1)] as string[]);
    try {
      // 192.0.2.10 is reserved too: the one lookup the attempt makes is refused, and no second one is made.
      expect(await firstAttemptError(`https://rebind.partner.example:${listener.port}/copm`)).toBe(
        "connection failed",
      );
      expect(lookups).toBe(1);
      expect(listener.connections()).toBe(0);
    } finally {
      h.deps.providers.webhookPost = post;
      await listener.close();
    }
  });
});

/** A loopback TCP port that counts the connections it gets. */
async function countingListener() {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
