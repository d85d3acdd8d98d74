import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, Receiver } from "@upstash/qstash";
import { decodeJwt } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type LocalQStash, type LocalQStashOptions, startLocalQStash } from "../../dev/qstash";

const TOKEN = "local-qstash-test-token";
const KEYS = { currentSigningKey: "sig_local_current_0001", nextSigningKey: "sig_local_next_0002" };

/** One request the destination received, with the real Receiver's verdict on it. */
interface Delivery {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
  verified: true | string;
}

type Reply = { status: number; headers?: Record<string, string> } | "hang";

/** A job endpoint on loopback that verifies every delivery with the unmodified `Receiver`. */
async function startDestination(reply: (attempt: number) => Reply = () => ({ status: 200 })) {
  const deliveries: Delivery[] = [];
  const receiver = new Receiver({ ...KEYS, devMode: false });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const url = `${base}${req.url}`;
      const verified = await receiver
        .verify({ signature: String(req.headers["upstash-signature"]), body: body.toString("utf8"), url })
        .then(() => true as const)
        .catch((error: unknown) => String(error));
      deliveries.push({
        method: req.method ?? "",
        url,
        headers: req.headers,
        body,
        at: Date.now(),
        verified,
      });
      const answer = reply(deliveries.length);
      if (answer === "hang") return; // never answers; the stand-in's timeout must give up
      res.writeHead(answer.status, answer.headers).end(answer.status < 300 ? "ok" : "failing on purpose");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path: string) => `${base}${path}`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startQStash(options: Partial<LocalQStashOptions> = {}) {
  const logs: Array<Record<string, unknown>> = [];
  const qstash = await startLocalQStash({
    token: TOKEN,
    ...KEYS,
    retryDelaySeconds: () => 0.05,
    log: (line) => logs.push(line),
    ...options,
  });
  cleanups.push(() => qstash.close());
  const client = new Client({ baseUrl: qstash.url, token: TOKEN, enableTelemetry: false });
  return { qstash, client, logs };
}

async function destination(reply?: (attempt: number) => Reply) {
  const server = await startDestination(reply);
  cleanups.push(server.close);
  return server;
}

/** Polls with short waits instead of sleeping for a fixed time. */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rawPublish(
  qstash: LocalQStash,
  destinationUrl: string,
  headers: Record<string, string>,
  body = "{}",
) {
  return fetch(`${qstash.url}/v2/publish/${destinationUrl}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers },
    body,
  });
}

describe("local QStash stand-in", () => {
  it("delivers a body byte-for-byte with a signature the real Receiver accepts", async () => {
    const { qstash, client } = await startQStash();
    const dest = await destination();
    const url = dest.url("/internal/jobs/settle?attempt=1");
    const raw = '{"city":"Bogotá ✓",  "amount":"1000000000000000000001"}\n';

    const published = await client.publish({
      url,
      body: raw,
      method: "PUT",
      headers: { "Content-Type": "application/json", "X-Trace-Id": "trace-42" },
    });
    expect(published.messageId).toMatch(/^msg_/);
    expect(published.url).toBe(url);
    await waitFor(() => dest.deliveries.length === 1, "the delivery");

    const [delivery] = dest.deliveries;
    expect(delivery?.verified).toBe(true);
    expect(delivery?.body.equals(Buffer.from(raw, "utf8"))).toBe(true);
    expect(delivery?.method).toBe("PUT");
    expect(delivery?.url).toBe(url);
    expect(delivery?.headers).toMatchObject({
      "content-type": "application/json",
      "x-trace-id": "trace-42",
      "upstash-message-id": published.messageId,
      "upstash-retried": "0",
      "user-agent": "Upstash-QStash",
    });
    expect(
      Object.keys(delivery?.headers ?? {}).filter((name) => name.startsWith("upstash-forward-")),
    ).toEqual([]);
    const claims = decodeJwt(String(delivery?.headers["upstash-signature"]));
    expect(claims).toMatchObject({ iss: "Upstash", sub: url });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
    expect(claims.nbf).toBe(claims.iat);
    expect(typeof claims.jti).toBe("string");
    // The destination has the body before the stand-in has read its answer: wait for completion.
    await expect.poll(() => qstash.pending()).toEqual([]);
  });

  it("signs so that wrong keys, another URL or a tampered body are rejected, and rotation works", async () => {
    const { client } = await startQStash();
    const dest = await destination();
    const url = dest.url("/internal/jobs/check");
    await client.publishJSON({ url, body: { hello: "world" } });
    await waitFor(() => dest.deliveries.length === 1, "the delivery");
    const delivery = dest.deliveries[0] as Delivery;
    const signature = String(delivery.headers["upstash-signature"]);
    const body = delivery.body.toString("utf8");
    expect(body).toBe(JSON.stringify({ hello: "world" }));

    const wrongKeys = new Receiver({
      currentSigningKey: "sig_wrong_1",
      nextSigningKey: "sig_wrong_2",
      devMode: false,
    });
    await expect(wrongKeys.verify({ signature, body, url })).rejects.toThrow();
    const right = new Receiver({ ...KEYS, devMode: false });
    await expect(right.verify({ signature, body, url: dest.url("/internal/jobs/other") })).rejects.toThrow(
      /subject/,
    );
    await expect(right.verify({ signature, body: body.replace("world", "w0rld"), url })).rejects.toThrow(
      /body hash/,
    );
    // During key rotation the Receiver falls back to the next key; the stand-in signs with the current one.
    const rotated = new Receiver({
      currentSigningKey: "sig_retired",
      nextSigningKey: KEYS.currentSigningKey,
      devMode: false,
    });
    await expect(rotated.verify({ signature, body, url })).resolves.toBe(true);
  });

  it("does not deliver before Upstash-Delay or Upstash-Not-Before is due", async () => {
    const { qstash, client } = await startQStash();
    const dest = await destination();
    const publishedAt = Date.now();
    const delayed = await client.publishJSON({ url: dest.url("/delayed"), body: { n: 1 }, delay: 1 });
    const notBeforeSeconds = Math.ceil(Date.now() / 1000) + 1;
    await client.publishJSON({ url: dest.url("/not-before"), body: { n: 2 }, notBefore: notBeforeSeconds });

    await sleep(500);
    expect(dest.deliveries).toEqual([]);
    const waiting = qstash.pending().find((message) => message.messageId === delayed.messageId);
    expect(waiting?.notBefore).toBeGreaterThanOrEqual(publishedAt + 1000);

    await waitFor(() => dest.deliveries.length === 2, "both deliveries");
    const byPath = Object.fromEntries(dest.deliveries.map((d) => [new URL(d.url).pathname, d]));
    expect(byPath["/delayed"]?.at).toBeGreaterThanOrEqual(publishedAt + 1000);
    expect(byPath["/not-before"]?.at).toBeGreaterThanOrEqual(notBeforeSeconds * 1000);
    expect(dest.deliveries.every((d) => d.verified === true)).toBe(true);
  });

  it("answers a repeated deduplication id with the first message id and delivers once", async () => {
    const { client } = await startQStash();
    const dest = await destination();
    const url = dest.url("/dedupe");
    const first = await client.publishJSON({ url, body: { n: 1 }, deduplicationId: "order-7:advance" });
    const second = await client.publishJSON({ url, body: { n: 2 }, deduplicationId: "order-7:advance" });
    expect(first.deduplicated).toBeUndefined();
    expect(second).toEqual({ messageId: first.messageId, url, deduplicated: true });

    const byContent = { url, body: { same: true }, contentBasedDeduplication: true };
    const third = await client.publishJSON(byContent);
    const fourth = await client.publishJSON(byContent);
    const fifth = await client.publishJSON({ ...byContent, body: { same: false } });
    expect(fourth).toMatchObject({ messageId: third.messageId, deduplicated: true });
    expect(fifth.messageId).not.toBe(third.messageId);

    await waitFor(() => dest.deliveries.length === 3, "three distinct deliveries");
    await sleep(200);
    expect(dest.deliveries.map((d) => d.body.toString())).toEqual(
      expect.arrayContaining(['{"n":1}', '{"same":true}', '{"same":false}']),
    );
    expect(dest.deliveries).toHaveLength(3);
  });

  it("retries a failing destination with Upstash-Retried 0, 1, 2 until it answers 2xx", async () => {
    const backoff = vi.fn(() => 0.05);
    const { qstash, client, logs } = await startQStash({ retryDelaySeconds: backoff });
    const dest = await destination((attempt) => ({ status: attempt <= 2 ? 500 : 200 }));
    const { messageId } = await client.publishJSON({ url: dest.url("/flaky"), body: { n: 1 } });

    await waitFor(() => logs.some((line) => line.event === "qstash.delivered"), "the final delivery");
    expect(dest.deliveries.map((d) => d.headers["upstash-retried"])).toEqual(["0", "1", "2"]);
    expect(dest.deliveries.map((d) => d.headers["upstash-message-id"])).toEqual([
      messageId,
      messageId,
      messageId,
    ]);
    expect(dest.deliveries.every((d) => d.verified === true)).toBe(true);
    expect(backoff.mock.calls).toEqual([[0], [1]]);
    await expect.poll(() => qstash.pending()).toEqual([]);
  });

  it("stops after the last retry and reports the message as failed", async () => {
    const { qstash, client, logs } = await startQStash();
    const dest = await destination(() => ({ status: 500 }));
    const { messageId } = await client.publishJSON({ url: dest.url("/down"), body: {}, retries: 2 });

    await waitFor(() => logs.some((line) => line.event === "qstash.failed"), "the failure");
    await sleep(300);
    expect(dest.deliveries).toHaveLength(3);
    expect(qstash.pending()).toEqual([]);
    expect(logs.find((line) => line.event === "qstash.failed")).toMatchObject({
      messageId,
      retried: 2,
      status: 500,
    });
  });

  it("stops at once on 489 with Upstash-NonRetryable-Error", async () => {
    const { client, logs } = await startQStash();
    const dest = await destination(() => ({
      status: 489,
      headers: { "Upstash-NonRetryable-Error": "true" },
    }));
    await client.publishJSON({ url: dest.url("/poison"), body: {}, retries: 3 });
    await waitFor(() => logs.some((line) => line.event === "qstash.failed"), "the failure");
    await sleep(200);
    expect(dest.deliveries).toHaveLength(1);
  });

  it("waits as long as the destination's Retry-After asks instead of the backoff", async () => {
    const { client, logs } = await startQStash({ retryDelaySeconds: () => 0.01 });
    const dest = await destination((attempt) =>
      attempt === 1 ? { status: 429, headers: { "Retry-After": "1" } } : { status: 200 },
    );
    await client.publishJSON({ url: dest.url("/rate-limited"), body: {} });
    await waitFor(() => dest.deliveries.length === 2, "the retry", 4_000);
    const [first, second] = dest.deliveries as [Delivery, Delivery];
    expect(second.at - first.at).toBeGreaterThanOrEqual(990);
    expect(logs.find((line) => line.event === "qstash.retry_scheduled")).toMatchObject({ delayMs: 1000 });
  });

  it("uses the message's Upstash-Retry-Delay expression over the default backoff", async () => {
    const { client } = await startQStash({ retryDelaySeconds: () => 60 });
    const dest = await destination((attempt) => ({ status: attempt === 1 ? 503 : 200 }));
    await client.publishJSON({
      url: dest.url("/custom-delay"),
      body: {},
      retryDelay: "max(150, 100 * retried)",
    });
    await waitFor(() => dest.deliveries.length === 2, "the retry");
    const [first, second] = dest.deliveries as [Delivery, Delivery];
    expect(second.at - first.at).toBeGreaterThanOrEqual(140);
  });

  it("gives up on an attempt after Upstash-Timeout and retries it", async () => {
    const { client, logs } = await startQStash();
    const dest = await destination((attempt) => (attempt === 1 ? "hang" : { status: 200 }));
    await client.publishJSON({ url: dest.url("/slow"), body: {}, timeout: 1 });
    await waitFor(() => dest.deliveries.length === 2, "the retry after the timeout", 4_000);
    const [first, second] = dest.deliveries as [Delivery, Delivery];
    expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
    expect(String(logs.find((line) => line.event === "qstash.retry_scheduled")?.reason)).toMatch(
      /no response/,
    );
  });

  it("refuses a wrong bearer token with 401 and schedules nothing", async () => {
    const { qstash } = await startQStash();
    const dest = await destination();
    const intruder = new Client({ baseUrl: qstash.url, token: "not-the-token", enableTelemetry: false });
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(intruder.publishJSON({ url: dest.url("/x"), body: {} })).rejects.toMatchObject({
      status: 401,
    });
    const anonymous = await fetch(`${qstash.url}/v2/publish/${dest.url("/x")}`, {
      method: "POST",
      body: "{}",
    });
    expect(anonymous.status).toBe(401);
    expect(qstash.pending()).toEqual([]);
    await sleep(100);
    expect(dest.deliveries).toEqual([]);
  });

  it("answers 400 with a reason for malformed publishes", async () => {
    const { qstash } = await startQStash();
    const dest = await destination();
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ["not-a-url", {}, /invalid destination url/],
      ["ftp://example.com/file", {}, /invalid destination url/],
      [dest.url("/x"), { "Upstash-Delay": "soon" }, /invalid Upstash-Delay/],
      [dest.url("/x"), { "Upstash-Delay": "10x" }, /invalid Upstash-Delay/],
      [dest.url("/x"), { "Upstash-Not-Before": "tomorrow" }, /invalid Upstash-Not-Before/],
      [dest.url("/x"), { "Upstash-Retries": "-1" }, /invalid Upstash-Retries/],
      [dest.url("/x"), { "Upstash-Method": "TRACE" }, /invalid Upstash-Method/],
      [dest.url("/x"), { "Upstash-Timeout": "0s" }, /invalid Upstash-Timeout/],
      [dest.url("/x"), { "Upstash-Retry-Delay": "pow(2," }, /invalid Upstash-Retry-Delay/],
      [dest.url("/x"), { "Upstash-Callback": dest.url("/cb") }, /not supported/],
    ];
    for (const [target, headers, reason] of cases) {
      const response = await rawPublish(qstash, target, headers);
      expect(response.status, `${target} ${JSON.stringify(headers)}`).toBe(400);
      // The stand-in's own { error } (no schema of ours describes it): matched as it is.
      expect(await response.json()).toHaveProperty("error", expect.stringMatching(reason));
    }
    expect(qstash.pending()).toEqual([]);
  });

  it("accepts delay forms in minutes, hours and days", async () => {
    const { qstash } = await startQStash();
    const dest = await destination();
    const before = Date.now();
    for (const delay of ["2m", "1h", "1d", "1h30m"]) {
      expect((await rawPublish(qstash, dest.url(`/${delay}`), { "Upstash-Delay": delay })).status).toBe(201);
    }
    const after = Date.now();
    const offsets = Object.fromEntries(qstash.pending().map((m) => [new URL(m.url).pathname, m.notBefore]));
    const minute = 60_000;
    expect(offsets["/2m"]).toBeGreaterThanOrEqual(before + 2 * minute);
    expect(offsets["/2m"]).toBeLessThanOrEqual(after + 2 * minute);
    expect(offsets["/1h"]).toBeGreaterThanOrEqual(before + 60 * minute);
    expect(offsets["/1d"]).toBeGreaterThanOrEqual(before + 24 * 60 * minute);
    expect(offsets["/1h30m"]).toBeGreaterThanOrEqual(before + 90 * minute);
    expect(offsets["/1h30m"]).toBeLessThanOrEqual(after + 90 * minute);
  });

  it("publishes a batch as separate signed messages", async () => {
    const { client } = await startQStash();
    const dest = await destination();
    const results = await client.batchJSON([
      { url: dest.url("/batch/a"), body: { n: 1 } },
      { url: dest.url("/batch/b"), body: { n: 2 }, headers: { "X-Kind": "b" } },
    ]);
    expect(results).toHaveLength(2);
    await waitFor(() => dest.deliveries.length === 2, "both batch deliveries");
    const b = dest.deliveries.find((d) => d.url.endsWith("/batch/b"));
    expect(b?.body.toString()).toBe('{"n":2}');
    expect(b?.headers["x-kind"]).toBe("b");
    expect(dest.deliveries.every((d) => d.verified === true)).toBe(true);
  });

  it("serves the signing keys and an empty schedule list to authorized callers", async () => {
    const { qstash } = await startQStash();
    const auth = { authorization: `Bearer ${TOKEN}` };
    const keys = await fetch(`${qstash.url}/v2/keys`, { headers: auth });
    expect(await keys.json()).toEqual({ current: KEYS.currentSigningKey, next: KEYS.nextSigningKey });
    const schedules = await fetch(`${qstash.url}/v2/schedules`, { headers: auth });
    expect([schedules.status, await schedules.json()]).toEqual([200, []]);
    expect((await fetch(`${qstash.url}/v2/keys`)).status).toBe(401);
  });

  it("keeps pending messages and deduplication ids across a restart with a data file", async () => {
    const directory = await mkdtemp(join(tmpdir(), "local-qstash-"));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const dataFile = join(directory, "state", "qstash.json");
    const dest = await destination();
    const url = dest.url("/persisted");

    const first = await startQStash({ dataFile });
    const { messageId } = await first.client.publishJSON({
      url,
      body: { keep: "me" },
      delay: 1,
      deduplicationId: "p-1",
    });
    await first.qstash.close();
    expect(JSON.parse(await readFile(dataFile, "utf8")).messages).toEqual([
      expect.objectContaining({ messageId, url }),
    ]);

    // Restart only once the message is overdue: it must go out promptly, not be lost or wait again.
    const due = Date.now() + 1100;
    await sleep(due - Date.now());
    expect(dest.deliveries).toEqual([]);
    const second = await startQStash({ dataFile });
    const restartedAt = Date.now();
    expect(second.qstash.pending().map((m) => m.messageId)).toEqual([messageId]);
    await waitFor(() => dest.deliveries.length === 1, "the delivery after restart");
    expect(dest.deliveries[0]?.at).toBeLessThan(restartedAt + 500);
    expect(dest.deliveries[0]?.headers["upstash-message-id"]).toBe(messageId);
    expect(dest.deliveries[0]?.body.toString()).toBe('{"keep":"me"}');
    expect(dest.deliveries[0]?.verified).toBe(true);

    const again = await second.client.publishJSON({ url, body: { keep: "me" }, deduplicationId: "p-1" });
    expect(again).toMatchObject({ messageId, deduplicated: true });
    await waitFor(() => second.qstash.pending().length === 0, "the message to leave the queue");
    await second.qstash.close();
    expect(JSON.parse(await readFile(dataFile, "utf8")).messages).toEqual([]);
  });

  it("lets the process exit after close(): no timer, socket or server left open", async () => {
    // Run in a child process: the only proof that nothing is left open is that Node exits by itself.
    const directory = await mkdtemp(join(tmpdir(), "local-qstash-exit-"));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const script = join(directory, "exit-check.mts");
    await writeFile(
      script,
      `import { createServer } from "node:http";
      import { Client } from ${JSON.stringify(import.meta.resolve("@upstash/qstash"))};
      import { startLocalQStash } from ${JSON.stringify(import.meta.resolve("../../dev/qstash/index.ts"))};
      const dest = createServer((req, res) => req.resume().on("end", () => res.end("ok")));
      await new Promise((resolve) => dest.listen(0, "127.0.0.1", resolve));
      const target = "http://127.0.0.1:" + dest.address().port + "/job";
      const qstash = await startLocalQStash({ token: "t", currentSigningKey: "a", nextSigningKey: "b" });
      const client = new Client({ baseUrl: qstash.url, token: "t", enableTelemetry: false });
      await client.publishJSON({ url: target, body: {} });
      await client.publishJSON({ url: target, body: {}, delay: "1d" });
      while (qstash.pending().length > 1) await new Promise((resolve) => setTimeout(resolve, 10));
      await qstash.close();
      dest.close();
      console.log("closed");
      `,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: process.cwd(), stdio: "pipe" });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exitCode = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve(null);
      }, 10_000);
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(output).toContain("closed");
    expect(exitCode, output).toBe(0);
  });
});
