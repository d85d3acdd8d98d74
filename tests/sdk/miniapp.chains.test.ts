import { createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION, type BrebMiniapp, brebMiniapp, CopmApiError, planTransactions } from "../../sdk/src";
import { createHarness, type Harness } from "../harness/app";
import { createTenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true, identity: true });
}, 60_000);
afterAll(() => h.close());

/** The miniapp's client (the page's; its whole flow runs in Chromium in tests/browser/miniapp.browser.test.ts). */
describe("the SDK's key-less BRE-B miniapp client against the app", () => {
  const seen: Request[] = [];
  const user = privateKeyToAccount(generatePrivateKey());
  let session = "";
  let miniapp: BrebMiniapp;
  beforeAll(async () => {
    const tenant = await createTenant(h, "Miniapp");
    Object.assign(h.deps.config, { MINIAPP_INTEGRATION_ID: tenant.integrationId });
    miniapp = brebMiniapp({
      baseUrl: "http://copm.test",
      language: "en",
      walletSession: () => session || undefined,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(request.clone());
        return h.app.fetch(request);
      },
    });
  });

  it("calls /api/breb without a key, with the wallet's session once it has one, typed like the partner API", async () => {
    seen.length = 0;
    const { data: challenge } = await miniapp.createBrebWalletChallenge({
      body: { userAddress: user.address },
    });
    const { data: opened } = await miniapp.openBrebWalletSession({
      body: { message: challenge.message, signature: await user.signMessage({ message: challenge.message }) },
    });
    session = opened.walletSession;
    const { data: sent } = await miniapp.sendBrebOtp({
      body: { email: "miniapp.sdk@example.com", userAddress: user.address },
    });
    const { data: verified } = await miniapp.verifyBrebOtp({
      body: { email: "miniapp.sdk@example.com", userAddress: user.address, code: `${sent.debugCode}` },
    });
    expect(verified.kyc.status).toBe("approved");

    expect(seen.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      "POST /api/breb/kyc/wallet/challenge",
      "POST /api/breb/kyc/wallet/session",
      "POST /api/breb/kyc/otp/send",
      "POST /api/breb/kyc/otp/verify",
    ]);
    expect(seen.map((request) => request.headers.get("authorization"))).toEqual([null, null, null, null]);
    expect(seen.map((request) => request.headers.get("wallet-session"))).toEqual([
      null,
      null,
      session,
      session,
    ]);
    expect(seen.every((request) => request.headers.get("api-version") === API_VERSION)).toBe(true);
    // The body went through the path change whole.
    expect(await seen[2]?.json()).toEqual({ email: "miniapp.sdk@example.com", userAddress: user.address });
  });

  it("throws the documented errors, with the Retry-After the service asked for", async () => {
    const tooSoon = await miniapp
      .sendBrebOtp({ body: { email: "miniapp.sdk@example.com", userAddress: user.address } })
      .catch((error: unknown) => error);
    expect(tooSoon).toBeInstanceOf(CopmApiError);
    expect((tooSoon as CopmApiError).code).toBe("OTP_RESEND_TOO_SOON");
    expect((tooSoon as CopmApiError).status).toBe(429);
    expect((tooSoon as CopmApiError).retryAfterMs).toBeGreaterThan(0);

    const saved = session;
    session = "";
    const noSession = await miniapp
      .getBrebKyc({ query: { userAddress: user.address } })
      .catch((error: unknown) => error);
    session = saved;
    expect((noSession as CopmApiError).code).toBe("WALLET_SESSION_REQUIRED");
    expect((noSession as CopmApiError).status).toBe(403);
    expect((noSession as CopmApiError).retryAfterMs).toBeUndefined();
  });

  it("is refused like /api/breb itself where the miniapp does not exist (live mode)", async () => {
    const config = h.deps.config as { MODE: string };
    const mode = config.MODE;
    config.MODE = "live";
    try {
      const refused = await miniapp
        .quoteBrebPayout({ query: { destinationCop: "100000", fromToken: "USDC" } })
        .catch((error: unknown) => error);
      expect((refused as CopmApiError).code).toBe("NOT_FOUND");
      expect((refused as CopmApiError).status).toBe(404);
    } finally {
      config.MODE = mode;
    }
  });
});

describe("planTransactions", () => {
  const plan = {
    steps: [
      {
        type: "approve",
        chainId: 42220,
        to: "0x8A567e2aE79CA692Bd748aB832081C45de4041eA",
        data: "0x095ea7b3",
        value: "0",
      },
    ],
    signature: "0x",
    signer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    eip712: { domain: { name: "COPm BRE-B Payout Plan", version: "1", chainId: 42220 } },
  };

  it("binds each transaction to its step's chain: a node of another chain refuses it", async () => {
    const [transaction] = planTransactions(plan);
    expect(transaction).toEqual({ chainId: 42220, to: plan.steps[0]?.to, data: "0x095ea7b3", value: 0n });
    const elsewhere = h.network?.chains.find((chain) => chain.chainId !== 42220);
    if (!elsewhere) throw new Error("the harness has no chains");
    const wallet = createWalletClient({
      account: privateKeyToAccount(generatePrivateKey()),
      transport: http(elsewhere.rpcUrl),
    });
    const step = transaction as NonNullable<typeof transaction>;
    const sent = await wallet
      .sendTransaction({ chain: null, ...step, gas: 100_000n })
      .catch((error: unknown) => error);
    expect(String(sent)).toMatch(/invalid chainId\. The expected chainId is \d+/);
    // Without its chain id the same step is signed for whichever chain the wallet is on: it fails
    // there only for want of gas money.
    const { chainId: _, ...unbound } = step;
    const signedHere = await wallet
      .sendTransaction({ chain: null, ...unbound, gas: 100_000n })
      .catch((error: unknown) => error);
    expect(String(signedHere)).not.toMatch(/chainId/);
    expect(String(signedHere)).toMatch(/funds|balance/i);
  });

  it("refuses a step that is not a transaction", () => {
    const bad = { ...plan, steps: [{ ...plan.steps[0], to: "nowhere" }] } as typeof plan;
    expect(() => planTransactions(bad)).toThrow("a approve step is not a transaction");
  });
});
