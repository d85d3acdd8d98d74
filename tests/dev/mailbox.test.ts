import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type LocalMailbox, type StoredEmail, startLocalMailbox } from "../../dev/mailbox";
import type { EmailMessage } from "../../lib/identity/ports";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import { resendEmail } from "../../lib/vendors/email/resend";

const FROM = "COPm <no-reply@copm.test>";
const RECIPIENT = "jane.doe@example.com";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mailbox(options: Parameters<typeof startLocalMailbox>[0] = {}) {
  const logs: Array<Record<string, unknown>> = [];
  const started = await startLocalMailbox({ log: (line) => logs.push(line), ...options });
  cleanups.push(() => started.close());
  return { mailbox: started, logs };
}

function senderFor(box: LocalMailbox, overrides: { apiKey?: string; timeoutMs?: number } = {}) {
  return resendEmail({ apiKey: box.apiKey, baseUrl: box.url, from: FROM, timeoutMs: 2_000, ...overrides });
}

function message(overrides: Partial<EmailMessage> = {}): EmailMessage {
  return {
    to: RECIPIENT,
    subject: "Your sign-in code",
    text: "Your code is 482913.",
    html: "<p>Your code is <b>482913</b>.</p>",
    ...overrides,
  };
}

/** The adapter's rejection, so a test can look at its kind and message. */
async function failureOf(sending: Promise<unknown>): Promise<ProviderFailure> {
  const outcome = await sending.then(
    () => new Error("expected the send to fail"),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ProviderFailure);
  return outcome as ProviderFailure;
}

async function storedThroughApi(box: LocalMailbox): Promise<StoredEmail[]> {
  const response = await fetch(`${box.url}/api/emails`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: StoredEmail[] }).data;
}

async function page(url: string): Promise<{ status: number; type: string | null; html: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get("content-type"), html: await response.text() };
}

function postEmail(box: LocalMailbox, body: string, headers: Record<string, string> = {}) {
  return fetch(`${box.url}/emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${box.apiKey}`, "content-type": "application/json", ...headers },
    body,
  });
}

/** A server on loopback that hands every request to `answer`; one that never writes to `res` never answers. */
async function stubServer(answer: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => answer(req, Buffer.concat(chunks).toString("utf8"), res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  cleanups.push(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

describe("local mailbox and the Resend adapter", () => {
  it("stores what the adapter sends and shows it as JSON and as escaped HTML pages", async () => {
    const { mailbox: box, logs } = await mailbox();
    const sender = senderFor(box);
    const first = await sender.send(message({ to: "first@example.com", subject: "Earlier" }));
    const hostile = message({
      subject: `Code <script>alert("s")</script> & more`,
      text: "Code 482913 <b>not bold</b>",
      html: `<p title="q&quot;">Hi &amp; welcome</p><script>alert('h')</script>`,
    });
    const { id } = await sender.send(hostile);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const stored = await storedThroughApi(box);
    expect(stored.map((email) => email.id)).toEqual([id, first.id]);
    expect(stored[0]).toEqual({
      id,
      from: FROM,
      to: [RECIPIENT],
      subject: hostile.subject,
      text: hostile.text,
      html: hostile.html,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(box.emails()).toEqual(stored);

    const inbox = await page(`${box.url}/`);
    expect(inbox.status).toBe(200);
    expect(inbox.type).toMatch(/^text\/html/);
    expect(inbox.html).toContain("Code &lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt; &amp; more");
    expect(inbox.html).not.toContain("<script>");
    expect(inbox.html).toContain(`href="/emails/${id}"`);
    expect(inbox.html).toContain(RECIPIENT);
    expect(inbox.html.indexOf(`/emails/${id}`)).toBeLessThan(inbox.html.indexOf(`/emails/${first.id}`));

    const shown = await page(`${box.url}/emails/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.html).not.toContain("<script>");
    expect(shown.html).toContain(FROM.replace("<", "&lt;").replace(">", "&gt;"));
    expect(shown.html).toContain("<pre>Code 482913 &lt;b&gt;not bold&lt;/b&gt;</pre>");
    // The iframe must get the email's HTML back exactly, and must not be allowed to run it.
    const iframe = /<iframe sandbox="" [^>]*srcdoc="([^"]*)"/.exec(shown.html);
    expect(iframe?.[1]).toBeDefined();
    expect(unescapeAttribute(iframe?.[1] ?? "")).toBe(hostile.html);

    const line = logs.find((entry) => entry.id === id);
    expect(line).toMatchObject({ to: ["j***@example.com"] });
    expect(JSON.stringify(logs)).not.toContain(RECIPIENT);
    expect(JSON.stringify(logs)).not.toContain("482913");
  });

  it("refuses a missing or wrong API key with 401, and the adapter's failure names neither recipient nor key", async () => {
    const { mailbox: box } = await mailbox({ apiKey: "re_right_key_123" });
    const wrongKey = "re_wrong_key_456";
    const failure = await failureOf(senderFor(box, { apiKey: wrongKey }).send(message()));
    expect(failure.kind).toBe("no_route");
    expect(failure.provider).toBe("email");
    expect(failure.message).toMatch(/HTTP 401.*invalid_api_key/);
    for (const secret of [RECIPIENT, wrongKey, "re_right_key_123", "482913"]) {
      expect(failure.message).not.toContain(secret);
    }

    const anonymous = await fetch(`${box.url}/emails`, { method: "POST", body: JSON.stringify({}) });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ statusCode: 401, name: "missing_api_key" });
    const wrong = await postEmail(box, "{}", { authorization: `Bearer ${wrongKey}` });
    expect(await wrong.json()).toMatchObject({ statusCode: 401, name: "invalid_api_key" });
    expect(box.emails()).toEqual([]);
  });

  it("answers 422 validation_error for a body Resend would refuse, and stores nothing", async () => {
    const { mailbox: box } = await mailbox();
    const valid = { from: FROM, to: RECIPIENT, subject: "Hi", text: "Hello" };
    const cases: Array<[string, string, RegExp]> = [
      ["no to", JSON.stringify({ ...valid, to: undefined }), /Missing `to`/],
      ["to not an address", JSON.stringify({ ...valid, to: ["not-an-address"] }), /`to`/],
      ["to a number", JSON.stringify({ ...valid, to: 7 }), /`to`/],
      ["no from", JSON.stringify({ ...valid, from: undefined }), /`from`/],
      ["no subject", JSON.stringify({ ...valid, subject: undefined }), /`subject`/],
      ["neither text nor html", JSON.stringify({ ...valid, text: undefined }), /`html` or `text`/],
      ["not JSON", "{", /JSON/],
    ];
    for (const [name, body, reason] of cases) {
      const response = await postEmail(box, body);
      expect(response.status, name).toBe(422);
      // Resend's error shape; the mailbox exports no type or schema for it.
      const answer: unknown = await response.json();
      expect(answer, name).toMatchObject({
        statusCode: 422,
        name: "validation_error",
        message: expect.stringMatching(reason),
      });
    }
    const listed = await postEmail(box, JSON.stringify({ ...valid, to: [RECIPIENT, "b@example.com"] }));
    expect(listed.status).toBe(200);
    expect((await storedThroughApi(box)).map((email) => email.to)).toEqual([[RECIPIENT, "b@example.com"]]);
  });

  it("gives up with ProviderFailure unavailable at the timeout when the receiver never answers", async () => {
    let received = false;
    const silent = await stubServer(() => {
      received = true;
    });
    const sender = resendEmail({ apiKey: "re_k", baseUrl: silent.url, from: FROM, timeoutMs: 200 });
    const started = performance.now();
    const failure = await failureOf(sender.send(message()));
    const elapsed = performance.now() - started;
    expect(received).toBe(true);
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/200 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1_000);

    // Nothing listening at all: a network error, reported the same way.
    await silent.close();
    const refused = await failureOf(sender.send(message()));
    expect(refused.kind).toBe("unavailable");
    expect(refused.message).not.toContain(RECIPIENT);
  });

  it("reports 429 and 5xx as unavailable and other 4xx as no_route, without echoing the recipient or key", async () => {
    let status = 500;
    // A provider that quotes the request back, as some validation errors do.
    const echoing = await stubServer((req, body, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `refused ${body} with ${req.headers.authorization}` }));
    });
    const apiKey = "re_secret_key_789";
    const sender = resendEmail({ apiKey, baseUrl: `${echoing.url}/`, from: FROM, timeoutMs: 2_000 });
    const expected: Array<[number, string]> = [
      [500, "unavailable"],
      [503, "unavailable"],
      [429, "unavailable"],
      [422, "no_route"],
      [403, "no_route"],
    ];
    for (const [answer, kind] of expected) {
      status = answer;
      const failure = await failureOf(sender.send(message()));
      expect([answer, failure.kind]).toEqual([answer, kind]);
      expect(failure.message).toContain(`HTTP ${answer}`);
      expect(failure.message).toContain("refused");
      expect(failure.message).not.toContain(RECIPIENT);
      expect(failure.message).not.toContain(apiKey);
    }
  });

  it("keeps emails across a restart with a data file", async () => {
    const directory = await mkdtemp(join(tmpdir(), "local-mailbox-"));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const dataFile = join(directory, "state", "mailbox.json");

    const first = await mailbox({ dataFile });
    const { id } = await senderFor(first.mailbox).send(message());
    const before = first.mailbox.emails();
    await first.mailbox.close();
    expect(JSON.parse(await readFile(dataFile, "utf8")).emails).toEqual([expect.objectContaining({ id })]);

    const second = await mailbox({ dataFile });
    expect(await storedThroughApi(second.mailbox)).toEqual(before);
    const later = await senderFor(second.mailbox).send(message({ subject: "Second" }));
    expect(second.mailbox.emails().map((email) => email.id)).toEqual([later.id, id]);
    expect((await page(`${second.mailbox.url}/emails/${id}`)).status).toBe(200);
  });

  it("answers 404 for unknown paths and unknown email ids", async () => {
    const { mailbox: box } = await mailbox();
    expect((await fetch(`${box.url}/nowhere`)).status).toBe(404);
    expect((await fetch(`${box.url}/emails/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });
});

/** Reverses the escaping of an attribute value, as the browser does before using srcdoc. */
function unescapeAttribute(value: string): string {
  return value
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}
