import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { kycSchema } from "../../functions/identity/schemas";
import { route as walletChallenge } from "../../functions/identity/wallet-challenge";
import { route as openWalletSession } from "../../functions/identity/wallet-session";
import { kycRecords } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { identityRequest, USER } from "../harness/identity";
import { createTenant, type Tenant } from "../harness/tenants";

/** Hardhat's public account #1 is the victim (USER); the attacker holds a wallet of its own. */
const VICTIM = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const ATTACKER = privateKeyToAccount("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6");

let h: Harness;
let tenant: Tenant;
beforeAll(async () => {
  h = await createHarness({ chains: true });
  tenant = await createTenant(h);
  Object.assign(h.deps.config, { MINIAPP_INTEGRATION_ID: tenant.integrationId });
}, 60_000);
afterAll(() => h.close());

type Caller = Tenant | "miniapp";

async function walletSession(caller: Caller, account: typeof VICTIM): Promise<string> {
  const challenge = await identityRequest(h, caller, "/kyc/wallet/challenge", {
    body: { userAddress: account.address },
  });
  const { message } = await bodyOf(challenge, walletChallenge, 201);
  const opened = await identityRequest(h, caller, "/kyc/wallet/session", {
    body: { message, signature: await account.signMessage({ message }) },
  });
  return (await bodyOf(opened, openWalletSession, 200)).walletSession;
}

function send(caller: Caller, email: string, userAddress: string, session?: string) {
  return identityRequest(h, caller, "/kyc/otp/send", {
    body: { email, userAddress },
    headers: session ? { "wallet-session": session } : {},
  });
}

function verify(caller: Caller, email: string, userAddress: string, session?: string) {
  return identityRequest(h, caller, "/kyc/otp/verify", {
    body: { email, userAddress, code: "123456" },
    headers: session ? { "wallet-session": session } : {},
  });
}

function read(caller: Caller, userAddress: string, session?: string) {
  return identityRequest(h, caller, `/kyc?userAddress=${userAddress}`, {
    headers: session ? { "wallet-session": session } : {},
  });
}

/** The status and what the answer says: a refusal's code, or the KYC status verify and read answer. */
async function codeOf(response: Response): Promise<[number, string]> {
  if (response.status !== 200) return [response.status, (await errorOf(response)).code];
  return [200, z.object({ kyc: kycSchema }).parse(await response.json()).kyc.status];
}

const recordOf = async (userAddress: string) =>
  (await h.database.db.select().from(kycRecords).where(eq(kycRecords.userAddress, userAddress)))[0];

describe("nobody without the wallet reads or changes its KYC (issue 20, finding 1)", () => {
  it("keeps an approved victim's record and status from an attacker on the key-less miniapp prefix and with the partner's key", async () => {
    expect(VICTIM.address).toBe(USER);
    const victimSession = await walletSession(tenant, VICTIM);
    expect((await send(tenant, "victim@example.com", USER, victimSession)).status).toBe(200);
    expect(await codeOf(await verify(tenant, "victim@example.com", USER, victimSession))).toEqual([
      200,
      "approved",
    ]);

    const attackerSession = await walletSession("miniapp", ATTACKER);
    for (const caller of ["miniapp", tenant] as const) {
      // No session, the attacker's own wallet's session, and a made-up token: none is the victim's wallet.
      for (const session of [undefined, attackerSession, "wsess_not-a-session"]) {
        const what = `${caller === "miniapp" ? "miniapp" : "key"} with ${session ?? "no session"}`;
        expect(await codeOf(await send(caller, "attacker@example.com", USER, session)), what).toEqual([
          403,
          "WALLET_SESSION_REQUIRED",
        ]);
        expect(await codeOf(await verify(caller, "attacker@example.com", USER, session)), what).toEqual([
          403,
          "WALLET_SESSION_REQUIRED",
        ]);
        expect(await codeOf(await read(caller, USER, session)), what).toEqual([
          403,
          "WALLET_SESSION_REQUIRED",
        ]);
      }
    }
    const record = await recordOf(USER);
    expect(record).toMatchObject({ email: "victim@example.com", status: "approved" });
    // The victim, with the wallet, still reads it.
    expect(await codeOf(await read(tenant, USER, victimSession))).toEqual([200, "approved"]);
  });

  it("never answers a pending victim's KYC link, and a session of another integration opens nothing here", async () => {
    const victim = privateKeyToAccount("0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a");
    const other = await createTenant(h, "Other integration");
    const otherSession = await walletSession(other, victim);
    // The same wallet, signed in with another integration: not a session of this one.
    expect(await codeOf(await send(tenant, "v2@example.com", victim.address, otherSession))).toEqual([
      403,
      "WALLET_SESSION_REQUIRED",
    ]);
    const read403 = await read(tenant, victim.address, otherSession);
    expect(read403.status).toBe(403);
    expect(await read403.text()).not.toMatch(/kycLink|termsLink/);
  });
});

describe("the key-less prefix's sign-in message names only this service (issue 37, finding 4)", () => {
  const challenge = (caller: Caller, body: Record<string, string>) =>
    identityRequest(h, caller, "/kyc/wallet/challenge", { body });

  it("refuses another domain or URI with 400 naming the field, so a phishing page cannot put its own name in the wallet's prompt", async () => {
    const user = privateKeyToAccount(generatePrivateKey());
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ domain: "copm-payouts.example" }, ["body.domain"]],
      [{ uri: "https://copm-payouts.example/claim" }, ["body.uri"]],
      [
        { domain: "copm-payouts.example", uri: "https://copm-payouts.example/claim" },
        ["body.domain", "body.uri"],
      ],
      // This service's host under another scheme or with a path is still not its URI.
      [{ uri: "https://api.test" }, ["body.uri"]],
      [{ uri: "http://api.test/claim?from=copm-payouts.example" }, ["body.uri"]],
    ];
    for (const [fields, named] of cases) {
      const error = await errorOf(await challenge("miniapp", { userAddress: user.address, ...fields }), 400);
      expect(error.code, JSON.stringify(fields)).toBe("INVALID_REQUEST");
      expect(
        error.problems?.map((problem) => problem.field),
        JSON.stringify(fields),
      ).toEqual(named);
    }
  });

  it("puts this service's domain and URI (PUBLIC_URL) in the message, with or without them sent, and the wallet signs in", async () => {
    const user = privateKeyToAccount(generatePrivateKey());
    const sent: Array<Record<string, string>> = [
      {},
      { domain: "api.test", uri: "http://api.test" },
      { uri: "http://api.test/" },
    ];
    for (const fields of sent) {
      const response = await challenge("miniapp", { userAddress: user.address, ...fields });
      const { message } = await bodyOf(response, walletChallenge, 201);
      expect(parseSiweMessage(message), JSON.stringify(fields)).toMatchObject({
        domain: "api.test",
        uri: "http://api.test",
      });
    }
    expect(await walletSession("miniapp", user)).toMatch(/^wsess_/);
    // A partner's key still names its own app, as its wallet shows it to the person.
    const own = await challenge(tenant, {
      userAddress: user.address,
      domain: "wallet.example.com",
      uri: "https://wallet.example.com/pay",
    });
    expect(parseSiweMessage((await bodyOf(own, walletChallenge, 201)).message)).toMatchObject({
      domain: "wallet.example.com",
      uri: "https://wallet.example.com/pay",
    });
  });
});
