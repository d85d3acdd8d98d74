import type { Hex } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundFreshWallet, sandboxChainOf } from "../../dev/chains";
import { route as walletChallenge } from "../../functions/identity/wallet-challenge";
import { route as walletSession } from "../../functions/identity/wallet-session";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { identityRequest, kycRequest, signInWallet } from "../harness/identity";
import { smartWallet } from "../harness/smart-wallets";
import { createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
let tenant: Tenant;
beforeAll(async () => {
  h = await createHarness({ chains: true });
  tenant = await createTenant(h);
}, 60_000);
afterAll(() => h.close());

const fresh = () => privateKeyToAccount(generatePrivateKey());

async function challengeFor(userAddress: string, extra: Record<string, string> = {}, caller = tenant) {
  const response = await identityRequest(h, caller, "/kyc/wallet/challenge", {
    body: { userAddress, ...extra },
  });
  return bodyOf(response, walletChallenge, 201);
}

function openSession(message: string, signature: Hex, caller = tenant) {
  return identityRequest(h, caller, "/kyc/wallet/session", { body: { message, signature } });
}

async function refusal(response: Response): Promise<[number, string]> {
  return [response.status, (await errorOf(response)).code];
}

/** The session opened, and the KYC read it allows for its address. */
async function signedIn(response: Response, userAddress: string) {
  // The session is a bearer credential shown once: no cache on the way keeps it (issue 37, finding 5).
  expect(response.headers.get("cache-control")).toBe("no-store");
  const session = await bodyOf(response, walletSession, 200);
  expect(session.userAddress).toBe(userAddress);
  expect(session.walletSession).toMatch(/^wsess_[A-Za-z0-9_-]{43}$/);
  const read = await kycRequest(h, tenant, userAddress, { walletSession: session.walletSession });
  expect(read.status, await read.clone().text()).toBe(200);
  return session;
}

describe("signing in with the wallet (EIP-4361)", () => {
  it("issues an EIP-4361 message bound to the address, this service, the payout chain, a fresh nonce and ten minutes", async () => {
    const user = fresh();
    const first = await challengeFor(user.address);
    const second = await challengeFor(user.address);
    const parsed = parseSiweMessage(first.message);
    expect(parsed).toMatchObject({
      domain: "api.test",
      address: user.address,
      uri: "http://api.test",
      version: "1",
      chainId: sandboxChainOf(h.network as NonNullable<Harness["network"]>, "destination").chainId,
      requestId: first.challengeId,
    });
    expect(parsed.issuedAt?.toISOString()).toBe(h.clock.now().toISOString());
    expect(parsed.expirationTime?.toISOString()).toBe(first.expiresAt);
    expect(Date.parse(first.expiresAt) - h.clock.now().getTime()).toBe(600_000);
    expect(parsed.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(parseSiweMessage(second.message).nonce).not.toBe(parsed.nonce);
    // A partner's app names its own domain and page, as the wallet shows them to the person.
    const own = await challengeFor(user.address, {
      domain: "wallet.example.com",
      uri: "https://wallet.example.com/pay",
    });
    expect(parseSiweMessage(own.message)).toMatchObject({
      domain: "wallet.example.com",
      uri: "https://wallet.example.com/pay",
    });
    await signedIn(
      await openSession(own.message, await user.signMessage({ message: own.message })),
      user.address,
    );
  });

  it("opens a one-hour session for an externally owned account's signature, good once per message", async () => {
    const user = fresh();
    const { message } = await challengeFor(user.address);
    const signature = await user.signMessage({ message });
    const session = await signedIn(await openSession(message, signature), user.address);
    expect(Date.parse(session.expiresAt) - h.clock.now().getTime()).toBe(3_600_000);
    expect(await refusal(await openSession(message, signature))).toEqual([400, "WALLET_CHALLENGE_EXPIRED"]);
    h.clock.advance(3_600_000);
    const expired = await kycRequest(h, tenant, user.address, { walletSession: session.walletSession });
    expect(await refusal(expired)).toEqual([403, "WALLET_SESSION_REQUIRED"]);
  });

  it("signs in a deployed smart-contract wallet (ERC-1271) and one not deployed yet (ERC-6492), both checked on the chain", async () => {
    const chain = sandboxChainOf(h.network as NonNullable<Harness["network"]>, "destination");
    const owner = (await fundFreshWallet(chain)) as PrivateKeyAccount;
    for (const deployed of [true, false]) {
      const wallet = await smartWallet(h, owner, { deployed });
      const { message } = await challengeFor(wallet.address);
      const signature = await wallet.signMessage(message);
      expect(signature.length > 132, `deployed: ${deployed}`).toBe(!deployed);
      await signedIn(await openSession(message, signature), wallet.address);
      // Another key's signature for the same wallet proves nothing.
      const again = await challengeFor(wallet.address);
      const stranger = await fresh().signMessage({ message: again.message });
      expect(await refusal(await openSession(again.message, stranger)), `deployed: ${deployed}`).toEqual([
        400,
        "INVALID_WALLET_SIGNATURE",
      ]);
    }
  });

  it("refuses another key's signature, an edited message, another integration's message and an expired one", async () => {
    const user = fresh();
    const { message } = await challengeFor(user.address);
    expect(await refusal(await openSession(message, await fresh().signMessage({ message })))).toEqual([
      400,
      "INVALID_WALLET_SIGNATURE",
    ]);
    // Signed as edited (another nonce, a later expiry): not the message the service issued.
    for (const edited of [
      message.replace(/Nonce: \w+/, "Nonce: abcdefgh12345678"),
      message.replace(/Expiration Time: .*/, "Expiration Time: 2099-01-01T00:00:00.000Z"),
      message.replace(/Request ID: ws_\w+/, "Request ID: ws_01KAZ6XQ4R8N2M5V7B9C1D3F5G"),
      "not a message at all",
    ]) {
      expect(await refusal(await openSession(edited, await user.signMessage({ message: edited })))).toEqual([
        400,
        "INVALID_WALLET_SIGNATURE",
      ]);
    }
    const other = await createTenant(h, "Other");
    const theirs = await challengeFor(user.address, {}, other);
    expect(
      await refusal(await openSession(theirs.message, await user.signMessage({ message: theirs.message }))),
    ).toEqual([400, "INVALID_WALLET_SIGNATURE"]);
    // Ten minutes to sign: the message answered after them is expired, and opens nothing.
    h.clock.advance(600_000);
    expect(await refusal(await openSession(message, await user.signMessage({ message })))).toEqual([
      400,
      "WALLET_CHALLENGE_EXPIRED",
    ]);
  });

  it("gives each message one try: after a wrong signature even the right one is refused, and a new message opens the session", async () => {
    const user = fresh();
    const { message } = await challengeFor(user.address);
    expect(await refusal(await openSession(message, await fresh().signMessage({ message })))).toEqual([
      400,
      "INVALID_WALLET_SIGNATURE",
    ]);
    expect(await refusal(await openSession(message, await user.signMessage({ message })))).toEqual([
      400,
      "WALLET_CHALLENGE_EXPIRED",
    ]);
    await signedIn(
      await signInWallet(h, tenant, user.address, (m) => user.signMessage({ message: m })),
      user.address,
    );
  });

  it("answers a signature viem cannot unwrap (ERC-8010-shaped, bad ERC-6492) with 400, never a retryable 503", async () => {
    const user = fresh();
    for (const signature of [`0x${"8010".repeat(16)}`, `0x${"ab".repeat(40)}${"6492".repeat(16)}`]) {
      const { message } = await challengeFor(user.address);
      expect(await refusal(await openSession(message, signature as Hex)), signature).toEqual([
        400,
        "INVALID_WALLET_SIGNATURE",
      ]);
    }
  });

  it("refuses an ERC-6492 wrapper for a wallet that is already deployed (its factory call would shape the check)", async () => {
    const chain = sandboxChainOf(h.network as NonNullable<Harness["network"]>, "destination");
    const owner = (await fundFreshWallet(chain)) as PrivateKeyAccount;
    const later = await smartWallet(h, owner, { deployed: false });
    const { message } = await challengeFor(later.address);
    const wrapped = await later.signMessage(message);
    await later.batch([]); // someone deploys the wallet meanwhile
    expect(await refusal(await openSession(message, wrapped))).toEqual([400, "INVALID_WALLET_SIGNATURE"]);
    const again = await challengeFor(later.address);
    await signedIn(await openSession(again.message, await later.signMessage(again.message)), later.address);
  });

  it("refuses malformed requests with 400 and the field, and a signature no wallet could make", async () => {
    const user = fresh();
    for (const [body, field] of [
      [{ userAddress: user.address.toLowerCase() }, "body.userAddress"],
      [{ userAddress: user.address, domain: "https://wallet.example.com" }, "body.domain"],
      [{ userAddress: user.address, domain: "wallet.example.com/path" }, "body.domain"],
      [{ userAddress: user.address, uri: "javascript:alert(1)" }, "body.uri"],
      [{ userAddress: user.address, extra: 1 }, "body.extra"],
    ] as const) {
      const response = await identityRequest(h, tenant, "/kyc/wallet/challenge", { body });
      const { problems } = await errorOf(response, 400);
      expect(
        problems?.map((p) => p.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const { message } = await challengeFor(user.address);
    for (const signature of ["0x", "0x1234", `0x${"00".repeat(65)}`, "nope"]) {
      const response = await openSession(message, signature as Hex);
      expect(response.status, signature).toBe(400);
    }
    // The message still opens a session with the wallet's real signature.
    await signedIn(
      await signInWallet(h, tenant, user.address, (m) => user.signMessage({ message: m })),
      user.address,
    );
  });
});
