import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../harness/app";
import {
  addMember,
  DashboardClient,
  freshEmail,
  mailedCode,
  signedInClient,
  twoOrganizations,
} from "../harness/dashboard";
import { adminRequest, type Tenant } from "../harness/tenants";

let h: Harness;
let acme: Tenant;
let other: Tenant;
beforeAll(async () => ({ h, acme, other } = await twoOrganizations()), 60_000);
afterAll(async () => h?.close());

/** The emails the mailbox holds for `email` now, without waiting for any still being sent. */
function emailsSoFar(email: string): number {
  return h.mailbox?.emails().filter((e) => e.to.includes(email)).length ?? 0;
}

/** The emails sent to `email`, once those sent after answers are out. */
async function emailsTo(email: string): Promise<number> {
  await h.settled();
  return emailsSoFar(email);
}

function cookieLine(response: Response, name: string): string {
  const line = response.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie was set`);
  return line;
}

describe("dashboard sign-in", () => {
  it("signs a member in with the code emailed to them: an HttpOnly, SameSite=Lax, signed cookie kept 12 h (Max-Age, whatever the browser's clock), and the overview names their organization", async () => {
    const email = freshEmail("ana");
    await addMember(h, acme.organizationId, email);
    const client = new DashboardClient(h);
    expect((await client.get("/dashboard")).status).toBe(303);
    await client.page("/dashboard/sign-in");
    const sent = await client.post("/dashboard/sign-in", { email: email.toUpperCase() });
    expect(sent.status).toBe(200);
    expect(await emailsTo(email)).toBe(1);
    const code = await mailedCode(h, email);
    expect(code).toMatch(/^\d{6}$/);
    expect(await sent.text()).not.toContain(code);

    const verified = await client.post("/dashboard/sign-in/code", { email, code });
    expect(verified.status).toBe(303);
    expect(verified.headers.get("location")).toBe("/dashboard");
    const cookie = cookieLine(verified, "copm_dashboard_session");
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/dashboard/);
    expect(cookie).not.toMatch(/Secure/i); // plain HTTP in mock mode: local development
    expect(cookie).toMatch(/Max-Age=43200(;|$)/);
    const overview = await client.page("/dashboard");
    expect(overview).toContain("Acme Wallet");
    expect(overview).toContain(acme.integrationId);
    expect(overview).not.toContain("Other Fintech");
    expect(overview).not.toContain(other.integrationId);
  });

  it("marks the session cookie Secure when the dashboard is served over HTTPS", async () => {
    const email = freshEmail("secure");
    await addMember(h, acme.organizationId, email);
    const send = (path: string, body: Record<string, string>, cookie: string) =>
      h.app.request(`https://api.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://api.test", cookie },
        body: new URLSearchParams(body).toString(),
      });
    const page = await h.app.request("https://api.test/dashboard/sign-in");
    const csrfCookie = cookieLine(page, "copm_dashboard_csrf").split(";")[0] ?? "";
    expect(cookieLine(page, "copm_dashboard_csrf")).toMatch(/Secure/);
    const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    expect((await send("/dashboard/sign-in", { email, _csrf: token }, csrfCookie)).status).toBe(200);
    const verified = await send(
      "/dashboard/sign-in/code",
      { email, code: await mailedCode(h, email), _csrf: token },
      csrfCookie,
    );
    expect(verified.status).toBe(303);
    expect(cookieLine(verified, "copm_dashboard_session")).toMatch(/; Secure/);
  });

  it("answers an email that is no member exactly as a member's, and emails it nothing", async () => {
    const stranger = freshEmail("stranger");
    const client = new DashboardClient(h);
    await client.page("/dashboard/sign-in");
    const answer = await client.post("/dashboard/sign-in", { email: stranger });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(`Si ${stranger} es miembro de una organización`);
    expect(await emailsTo(stranger)).toBe(0);
    // The throttle answers alike too: a second send within 30 s is refused for members and strangers.
    expect((await client.post("/dashboard/sign-in", { email: stranger })).status).toBe(429);
    const wrong = await client.post("/dashboard/sign-in/code", { email: stranger, code: "000000" });
    expect(wrong.status).toBe(400);
    expect(client.cookies.has("copm_dashboard_session")).toBe(false);
  });

  it("refuses a wrong code with the attempts left, locks the code at the fifth, and a new code is needed", async () => {
    const email = freshEmail("typo");
    await addMember(h, acme.organizationId, email);
    const client = new DashboardClient(h);
    await client.page("/dashboard/sign-in");
    await client.post("/dashboard/sign-in", { email });
    const right = await mailedCode(h, email);
    const wrong = right === "111111" ? "222222" : "111111";
    const first = await client.post("/dashboard/sign-in/code", { email, code: wrong });
    expect(first.status).toBe(400);
    const html = await first.text();
    expect(html).toContain('data-code="OTP_INVALID"');
    expect(html).toContain("Intentos restantes: 4.");
    for (let i = 0; i < 3; i += 1) await client.post("/dashboard/sign-in/code", { email, code: wrong });
    const fifth = await client.post("/dashboard/sign-in/code", { email, code: wrong });
    expect(await fifth.text()).toContain('data-code="OTP_LOCKED"');
    const late = await client.post("/dashboard/sign-in/code", { email, code: right });
    expect(await late.text()).toContain('data-code="OTP_LOCKED"');
    expect(client.cookies.has("copm_dashboard_session")).toBe(false);
  });

  it("keeps a member's code good when another browser asks for a code for the same email, and takes a code only in the browser that asked", async () => {
    const email = freshEmail("targeted");
    await addMember(h, acme.organizationId, email);
    const member = new DashboardClient(h);
    await member.page("/dashboard/sign-in");
    await member.post("/dashboard/sign-in", { email });
    const code = await mailedCode(h, email);
    const attacker = new DashboardClient(h);
    await attacker.page("/dashboard/sign-in");
    h.clock.advance(31_000);
    expect((await attacker.post("/dashboard/sign-in", { email })).status).toBe(200);
    // The member's code, typed in the attacker's browser, opens nothing there.
    const elsewhere = await attacker.post("/dashboard/sign-in/code", { email, code });
    expect(elsewhere.status).not.toBe(303);
    expect(attacker.cookies.has("copm_dashboard_session")).toBe(false);
    // Nine more sends from fresh browsers do not lock the member out of asking either.
    for (let i = 0; i < 9; i += 1) {
      const another = new DashboardClient(h);
      await another.page("/dashboard/sign-in");
      expect((await another.post("/dashboard/sign-in", { email })).status).toBe(200);
    }
    expect((await member.post("/dashboard/sign-in/code", { email, code })).status).toBe(303);
  });

  it("locks an email's sign-in after twenty wrong codes in 24 hours, however many new codes are asked for, until a day has passed", async () => {
    const email = freshEmail("guessed");
    await addMember(h, acme.organizationId, email);
    const guesser = new DashboardClient(h);
    await guesser.page("/dashboard/sign-in");
    const wrongFor = (right: string) => (right === "000000" ? "000001" : "000000");
    for (let round = 0; round < 5; round += 1) {
      h.clock.advance(31_000);
      expect((await guesser.post("/dashboard/sign-in", { email })).status).toBe(200);
      const wrong = wrongFor(await mailedCode(h, email));
      for (let i = 0; i < 4; i += 1) {
        expect((await guesser.post("/dashboard/sign-in/code", { email, code: wrong })).status).toBe(400);
      }
    }
    h.clock.advance(31_000);
    await guesser.post("/dashboard/sign-in", { email });
    const locked = await guesser.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) });
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain('data-code="OTP_LOCKED"');
    expect(guesser.cookies.has("copm_dashboard_session")).toBe(false);

    h.clock.advance(24 * 3600_000);
    const member = new DashboardClient(h);
    await member.page("/dashboard/sign-in");
    await member.post("/dashboard/sign-in", { email });
    expect(
      (await member.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) })).status,
    ).toBe(303);
  });

  it("refuses a code after its ten minutes, and a used code opens nothing more", async () => {
    const email = freshEmail("slow");
    await addMember(h, acme.organizationId, email);
    const client = new DashboardClient(h);
    await client.page("/dashboard/sign-in");
    await client.post("/dashboard/sign-in", { email });
    h.clock.advance(10 * 60_000);
    const expired = await client.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) });
    expect(await expired.text()).toContain('data-code="OTP_EXPIRED"');

    await client.post("/dashboard/sign-in", { email });
    const code = await mailedCode(h, email);
    expect((await client.post("/dashboard/sign-in/code", { email, code })).status).toBe(303);
    const again = new DashboardClient(h);
    await again.page("/dashboard/sign-in");
    const replay = await again.post("/dashboard/sign-in/code", { email, code });
    expect(await replay.text()).toContain('data-code="OTP_NOT_FOUND"');
    expect(again.cookies.has("copm_dashboard_session")).toBe(false);
  });

  it("refuses every form without this page's CSRF token or from another origin with 403, doing nothing", async () => {
    const email = freshEmail("csrf");
    await addMember(h, acme.organizationId, email);
    const client = new DashboardClient(h);
    await client.page("/dashboard/sign-in");
    const noToken = await client.post("/dashboard/sign-in", { email }, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain("El formulario venció o no vino de este panel");
    expect((await client.post("/dashboard/sign-in", { email }, { csrf: "0".repeat(66) })).status).toBe(403);
    expect(
      (await client.post("/dashboard/sign-in", { email }, { origin: "https://evil.example" })).status,
    ).toBe(403);
    expect(await emailsTo(email)).toBe(0);

    const signedEmail = freshEmail("signed");
    await addMember(h, acme.organizationId, signedEmail);
    const member = await signedInClient(h, signedEmail);
    const before = member.csrf;
    // A signed-in form needs the session's token; the pre-session one (or another session's) is refused.
    expect((await member.post("/dashboard/sign-out", {}, { csrf: client.csrf })).status).toBe(403);
    expect((await member.get("/dashboard")).status).toBe(200);
    expect((await member.post("/dashboard/sign-out", {}, { csrf: before })).status).toBe(303);
  });

  it("refuses a body that is not a URL-encoded form, a malformed multipart one included, with 403 and never a 500", async () => {
    const client = new DashboardClient(h);
    await client.page("/dashboard/sign-in");
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    for (const type of [
      "multipart/form-data",
      "multipart/form-data; boundary=x",
      "application/json",
      "text/plain",
    ]) {
      const answer = await h.app.request("http://api.test/dashboard/sign-in", {
        method: "POST",
        headers: { "content-type": type, origin: "http://api.test", cookie },
        body: "garbage",
      });
      expect(answer.status, type).toBe(403);
    }
  });

  it("ends the earlier session when the same browser signs in again", async () => {
    const email = freshEmail("twice");
    await addMember(h, acme.organizationId, email);
    const client = await signedInClient(h, email);
    const first = new Map(client.cookies);
    h.clock.advance(31_000);
    await client.post("/dashboard/sign-in", { email });
    expect(
      (await client.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) })).status,
    ).toBe(303);
    expect((await client.get("/dashboard")).status).toBe(200);
    const old = new DashboardClient(h);
    for (const [name, value] of first) old.cookies.set(name, value);
    expect((await old.get("/dashboard")).status).toBe(303);
  });

  it("signs out of a session that already ended without a token, clearing its cookie", async () => {
    const email = freshEmail("late");
    await addMember(h, acme.organizationId, email);
    const client = await signedInClient(h, email);
    h.clock.advance(12 * 3600_000);
    const out = await client.post("/dashboard/sign-out", {});
    expect(out.status).toBe(303);
    expect(client.cookies.has("copm_dashboard_session")).toBe(false);
  });

  it("ends the session on sign-out: the same cookie replayed afterwards opens nothing", async () => {
    const email = freshEmail("leaving");
    await addMember(h, acme.organizationId, email);
    const client = await signedInClient(h, email);
    const stolen = new Map(client.cookies);
    const out = await client.post("/dashboard/sign-out", {});
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/dashboard/sign-in?out=1");
    const thief = new DashboardClient(h);
    for (const [name, value] of stolen) thief.cookies.set(name, value);
    const answer = await thief.get("/dashboard");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard/sign-in?ended=1");
  });

  it("ends the session after 12 hours and when the operator revokes the member", async () => {
    const email = freshEmail("timed");
    await addMember(h, acme.organizationId, email);
    const client = await signedInClient(h, email);
    h.clock.advance(12 * 3600_000 - 1000);
    expect((await client.get("/dashboard")).status).toBe(200);
    h.clock.advance(1000);
    expect((await client.get("/dashboard")).status).toBe(303);

    const revokedEmail = freshEmail("revoked");
    const memberId = await addMember(h, acme.organizationId, revokedEmail);
    const revoked = await signedInClient(h, revokedEmail);
    expect((await revoked.get("/dashboard")).status).toBe(200);
    const revoke = await adminRequest(h, `/admin/organizations/${acme.organizationId}/members/${memberId}`, {
      method: "DELETE",
    });
    expect(revoke.status).toBe(200);
    expect((await revoked.get("/dashboard")).status).toBe(303);
  });

  it("opens nothing with a cookie whose signature or token was altered", async () => {
    const email = freshEmail("forger");
    await addMember(h, acme.organizationId, email);
    const client = await signedInClient(h, email);
    const original = client.cookies.get("copm_dashboard_session") ?? "";
    const decoded = decodeURIComponent(original);
    const [value = "", signature = ""] = [
      decoded.slice(0, decoded.lastIndexOf(".")),
      decoded.slice(decoded.lastIndexOf(".") + 1),
    ];
    const tamperedSignature = `${value}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    const [sessionId = ""] = value.split(".");
    for (const forged of [
      encodeURIComponent(tamperedSignature),
      encodeURIComponent(`${sessionId}.guessed-token`),
    ]) {
      const forger = new DashboardClient(h);
      forger.cookies.set("copm_dashboard_session", forged);
      expect((await forger.get("/dashboard")).status).toBe(303);
    }
  });

  it("lets an email in two organizations choose one, and shows only that one", async () => {
    const email = freshEmail("both");
    await addMember(h, acme.organizationId, email);
    await addMember(h, other.organizationId, email);
    const client = new DashboardClient(h);
    await client.page("/dashboard/sign-in");
    await client.post("/dashboard/sign-in", { email });
    const choose = await client.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) });
    expect(choose.status).toBe(200);
    const html = await choose.text();
    expect(html).toContain("Entrar a Acme Wallet");
    expect(html).toContain("Entrar a Other Fintech");
    expect(client.cookies.has("copm_dashboard_session")).toBe(false);
    const otherMemberId = [...html.matchAll(/name="memberId" value="([^"]+)"/g)].map((m) => m[1])[1] ?? "";
    const chosen = await client.post("/dashboard/sign-in/organization", { memberId: otherMemberId });
    expect(chosen.status).toBe(303);
    const overview = await client.page("/dashboard");
    expect(overview).toContain("Other Fintech");
    expect(overview).not.toContain(acme.integrationId);
    // The choice is spent: the pending cookie can start no second session.
    const second = await client.post("/dashboard/sign-in/organization", { memberId: otherMemberId });
    expect(second.status).toBe(404);
  });

  it("speaks English with an English Accept-Language or the switch, and remembers the switch", async () => {
    const client = new DashboardClient(h);
    const english = await client.get("/dashboard/sign-in", { "accept-language": "en-US,en;q=0.9" });
    expect(await english.text()).toContain("Sign in to the dashboard");
    const switched = await client.get("/dashboard/sign-in?lang=en");
    expect(await switched.text()).toContain('<html lang="en">');
    const remembered = await client.get("/dashboard/sign-in");
    expect(await remembered.text()).toContain("Sign in to the dashboard");
    expect(await (await client.get("/dashboard/sign-in?lang=es")).text()).toContain("Entrar al panel");
  });
});

describe("sign-in tells nobody who is a member, by its answer or its time (issue 20, finding 9)", () => {
  it("answers a member and a stranger before the email provider has answered, and the member's code still arrives", async () => {
    const member = freshEmail("slow-provider");
    await addMember(h, acme.organizationId, member);
    const stranger = freshEmail("slow-stranger");
    const provider = h.deps.providers.identity;
    const real = provider.email;
    if (!real) throw new Error("the harness has no email provider");
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = 0;
    provider.email = {
      send: async (message) => {
        asked += 1;
        await held;
        return real.send(message);
      },
    };
    try {
      for (const email of [member, stranger]) {
        const client = new DashboardClient(h);
        await client.page("/dashboard/sign-in");
        const answered = await Promise.race([
          client.post("/dashboard/sign-in", { email }).then((response) => response.status),
          new Promise((resolve) => setTimeout(() => resolve("still waiting for the email provider"), 3_000)),
        ]);
        expect(answered, email).toBe(200);
      }
      expect(asked).toBe(1);
      expect(emailsSoFar(member)).toBe(0);
    } finally {
      release();
      provider.email = real;
    }
    await h.settled();
    expect(await emailsTo(member)).toBe(1);
    expect(await emailsTo(stranger)).toBe(0);
  });
});
