import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";
import type { Harness } from "./app";
import { DashboardClient, mailedCode } from "./dashboard";

/** The code an authenticator app shows for `secret` at the harness's clock, `offsetSteps` steps later. */
export function appCode(h: Harness, secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: h.clock.now().getTime() + offsetSteps * 30_000 });
}

/** `count` codes the app does not show now, nor one step either side. */
export function wrongCodes(h: Harness, secret: string, count: number): string[] {
  const near = new Set([-1, 0, 1].map((step) => appCode(h, secret, step)));
  const codes: string[] = [];
  for (let n = 100_000; codes.length < count; n += 7919) if (!near.has(String(n))) codes.push(String(n));
  return codes;
}

/** The error code a dashboard page shows (`data-code` of its error note). */
export function pageErrorCode(html: string): string | undefined {
  return html.match(/data-code="([A-Z_]+)"/)?.[1];
}

/** The emailed code's step only: the session it opens may still owe its second factor. */
export async function emailStep(h: Harness, email: string): Promise<DashboardClient> {
  const client = new DashboardClient(h);
  await client.page("/dashboard/sign-in");
  await client.post("/dashboard/sign-in", { email });
  const verified = await client.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) });
  expect(verified.status).toBe(303);
  return client;
}

/** Sets up two-factor for a signed-in member: the app's secret and the recovery codes shown once. */
export async function enroll(
  h: Harness,
  client: DashboardClient,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await client.page("/dashboard/security");
  const html = await (await client.post("/dashboard/security/two-factor/start", {})).text();
  const secret = html.match(/id="two-factor-secret">([A-Z2-7]+)</)?.[1];
  if (!secret) throw new Error("no secret on the enrolment page");
  const confirmed = await client.post("/dashboard/security/two-factor/confirm", { code: appCode(h, secret) });
  expect(confirmed.status).toBe(200);
  const codes = (await confirmed.text()).match(/id="recovery-codes">([^<]+)</)?.[1] ?? "";
  return { secret, recoveryCodes: codes.split("\n").filter(Boolean) };
}
