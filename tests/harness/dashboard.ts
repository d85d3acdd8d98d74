import type { Page } from "playwright-core";
import { route as addMemberRoute } from "../../functions/tenancy/admin-add-member";
import type { MemberRole } from "../../lib/tenancy/roles";
import { createHarness, type Harness } from "./app";
import { bodyOf } from "./bodies";
import { adminRequest, createTenant, type Tenant } from "./tenants";

const ORIGIN = "http://api.test";

/**
 * A browser's part in the dashboard without the browser, over `h.app.request`: it keeps cookies,
 * follows nothing on its own (tests see every redirect), and sends forms with this page's CSRF token
 * the way the dashboard's own forms do.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  /** The CSRF token of the last page read. */
  csrf = "";

  constructor(private readonly h: Harness) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await this.h.app.request(`${ORIGIN}${path}`, {
      headers: { ...this.cookieHeader(), ...headers },
    });
    return this.keep(response);
  }

  /** Reads a page and returns its HTML (the CSRF token in it is kept for the next post). */
  async page(path: string): Promise<string> {
    const response = await this.get(path);
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
    return response.text();
  }

  async post(
    path: string,
    form: Record<string, string | string[]>,
    options: { csrf?: string | false; origin?: string } = {},
  ): Promise<Response> {
    // A list is the field repeated, as checkboxes of one name are sent.
    const body = new URLSearchParams(
      Object.entries(form).flatMap(([name, value]) => [value].flat().map((one) => [name, one])),
    );
    const token = options.csrf === undefined ? this.csrf : options.csrf;
    if (token !== false) body.set("_csrf", token);
    const response = await this.h.app.request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: {
        ...this.cookieHeader(),
        "content-type": "application/x-www-form-urlencoded",
        origin: options.origin ?? ORIGIN,
      },
      body: body.toString(),
    });
    return this.keep(response);
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") };
  }

  private async keep(response: Response): Promise<Response> {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a),
      );
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
    }
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/html")) {
      const html = await response.clone().text();
      const token = html.match(/name="_csrf" value="([^"]+)"/)?.[1];
      if (token) this.csrf = token;
    }
    return response;
  }
}

/** The newest sign-in code the local mailbox holds for `email`, once the emails sent after answers are out. */
export async function mailedCode(h: Harness, email: string): Promise<string> {
  await h.settled();
  const mailbox = h.mailbox;
  if (!mailbox) throw new Error("the harness needs { identity: true } for the mailbox");
  const email_ = mailbox
    .emails()
    .find((e) => e.to.includes(email.toLowerCase()) && e.subject.includes("panel"));
  const code = email_?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no sign-in code was emailed to ${email}`);
  return code;
}

/**
 * What the sign-in and keys suites stand on: a harness with the mailbox and two organizations of one
 * integration each. The per-IP rate limit is lifted, as every sign-in comes from the same address.
 */
export async function twoOrganizations(): Promise<{ h: Harness; acme: Tenant; other: Tenant }> {
  const h = await createHarness({ identity: true, env: { RATE_LIMIT_PER_IP_PER_MINUTE: "100000" } });
  try {
    return { h, acme: await createTenant(h, "Acme Wallet"), other: await createTenant(h, "Other Fintech") };
  } catch (error) {
    await h.close();
    throw error;
  }
}

let emails = 0;

/** An email not used before, so the per-email throttles of one test never reach another. */
export function freshEmail(name: string): string {
  emails += 1;
  return `${name}.${emails}@example.com`;
}

/** Adds a member through the admin API, with the operator's default role (owner) unless `role` is given. */
export async function addMember(
  h: Harness,
  organizationId: string,
  email: string,
  role?: MemberRole,
): Promise<string> {
  const response = await adminRequest(h, `/admin/organizations/${organizationId}/members`, {
    method: "POST",
    body: role ? { email, role } : { email },
  });
  // 201 added, 200 already a member: either answers the member.
  return (await bodyOf(response, addMemberRoute, response.status === 200 ? 200 : 201)).member.id;
}

/** A member of the tenant's organization under a fresh email, signed in through the emailed code. */
export async function signedInMember(h: Harness, tenant: Tenant, name: string): Promise<DashboardClient> {
  const email = freshEmail(name);
  await addMember(h, tenant.organizationId, email);
  return signedInClient(h, email);
}

/** A member signed in through the emailed code, as a person does it. */
export async function signedInClient(h: Harness, email: string): Promise<DashboardClient> {
  const client = new DashboardClient(h);
  await client.page("/dashboard/sign-in");
  const sent = await client.post("/dashboard/sign-in", { email });
  if (sent.status !== 200) throw new Error(`send code: ${sent.status}`);
  const verified = await client.post("/dashboard/sign-in/code", { email, code: await mailedCode(h, email) });
  if (verified.status !== 303) throw new Error(`verify code: ${verified.status} ${await verified.text()}`);
  await client.page("/dashboard");
  return client;
}

/**
 * A person signing in in Chromium: the email form, the code read from the local mailbox, the
 * session cookie set by the answer, and for a member with two-factor the app's code from
 * `secondFactor`. Leaves the page on the overview.
 */
export async function signInInBrowser(
  h: Harness,
  page: Page,
  baseUrl: string,
  email: string,
  secondFactor?: () => string | Promise<string>,
): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await page.getByLabel(/Correo electrónico|Email/).fill(email);
  await page.getByRole("button", { name: /Enviar código|Send code/ }).click();
  await page.getByLabel(/Código de 6 dígitos|6-digit code/).fill(await mailedCode(h, email));
  await page.getByRole("button", { name: /^(Entrar|Sign in)$/ }).click();
  if (secondFactor) {
    // A member with two-factor sign-in: the app's code on the second step.
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/two-factor`);
    await page.getByLabel(/^(Código|Code)$/).fill(await secondFactor());
    await page.getByRole("button", { name: /^(Verificar|Verify)$/ }).click();
  }
  await page.waitForURL(`${baseUrl}/dashboard`);
}

/** The href of a dashboard page's pager link named `name` (`&amp;` read back as `&`). */
export function pagerLink(html: string, name: string): string | undefined {
  const pager = html.match(/<nav class="pager"[\s\S]*?<\/nav>/)?.[0] ?? "";
  const href = [...pager.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].find((m) => m[2] === name)?.[1];
  return href?.replaceAll("&amp;", "&");
}
