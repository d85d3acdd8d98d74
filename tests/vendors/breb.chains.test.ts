import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { type Address, erc20Abi, type Hex, parseEventLogs, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type LocalBrebProviderOptions, startLocalBrebProvider } from "../../dev/breb-provider";
import {
  fundFreshWallet,
  type RunningSandboxChains,
  type SandboxChain,
  sandboxChainOf,
  sandboxPublicClient,
  sandboxWalletClient,
  startSandboxChains,
} from "../../dev/chains";
import { startWebhookReceiver } from "../../dev/webhook-receiver";
import { ManualClock } from "../../lib/kernel/clock";
import { ProviderFailure } from "../../lib/kernel/provider-failure";
import type { BrebPayoutReport, BrebPayoutRequest, BrebToken } from "../../lib/payouts/breb-provider";
import { httpBrebProvider, verifyBrebCallback } from "../../lib/vendors/breb/breb-http";
import { startRecordedHttpServer } from "./recorded-http-server";

const run = promisify(execFile);

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER_SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const API_KEY = "breb_test_key_5f0c3e9d1a2b4c6d";
const KEY = "3001234567";
const OWNER = "Juana Pérez";
/** The sandbox's deposit account: Hardhat's default account #3. */
const DEPOSIT_ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const TIMEOUT_MS = 300;
const USDC = (amount: string) => parseUnits(amount, 6);
const COPM = (amount: string) => parseUnits(amount, 18);

/** One callback as the provider delivered it. */
interface Delivered {
  body: string;
  headers: Record<string, string>;
}

let chains: RunningSandboxChains;
let destination: SandboxChain;
let tokens: Record<BrebToken, Address>;

beforeAll(async () => {
  chains = await startSandboxChains();
  destination = sandboxChainOf(chains.network, "destination");
  const { usdc, copm } = destination.contracts;
  if (!usdc || !copm) throw new Error("the destination chain has no USDC or COPm");
  tokens = { USDC: usdc, COPm: copm };
});

afterAll(async () => {
  await chains?.close();
});

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A local provider on a manual clock that moves only on settle(), its callbacks kept in `delivered`. */
async function provider(overrides: Partial<LocalBrebProviderOptions> = {}) {
  const clock = new ManualClock(new Date());
  const delivered: Delivered[] = [];
  const local = await startLocalBrebProvider({
    apiKey: API_KEY,
    callbackSecret: SECRET,
    deliver: async (body, headers) => {
      delivered.push({ body, headers });
      return { status: 200 };
    },
    chain: { chainId: destination.chainId, rpcUrl: destination.rpcUrl, tokens },
    operatorKey: chains.network.operator.privateKey,
    now: () => clock.now(),
    autoSettle: false,
    ...overrides,
  });
  cleanups.push(() => local.close());
  const adapter = httpBrebProvider({ baseUrl: local.url, apiKey: local.apiKey, timeoutMs: 5_000 });
  return { local, adapter, clock, delivered };
}

async function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return sandboxPublicClient(destination).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

/** A fresh wallet minted `minted` of the token, which transfers `amount` of it to `to`; the mined hash. */
async function deposit(token: BrebToken, amount: bigint, to: Address = DEPOSIT_ADDRESS, minted = amount) {
  const payer = await fundFreshWallet(destination, [{ token: tokens[token], amount: minted }]);
  const hash = await sandboxWalletClient(destination, payer).writeContract({
    address: tokens[token],
    abi: erc20Abi,
    functionName: "transfer",
    args: [to, amount],
  });
  const receipt = await sandboxPublicClient(destination).waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return hash;
}

function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

let payoutCounter = 0;
function payoutRequest(overrides: Partial<BrebPayoutRequest> & { depositTxHash: string }): BrebPayoutRequest {
  payoutCounter += 1;
  return {
    payoutId: `pay_${Date.now()}_${payoutCounter}`,
    breBKey: KEY,
    accountOwnerName: OWNER,
    destinationCop: "39124",
    token: "USDC",
    chainId: destination.chainId,
    amount: USDC("10").toString(),
    refundAddress: freshAddress(),
    ...overrides,
  };
}

async function failureOf(attempt: Promise<unknown>): Promise<ProviderFailure> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

/** The failure carries none of the secrets, in any case. */
function expectNoSecrets(failure: ProviderFailure, secrets: readonly string[] = [KEY, OWNER, API_KEY]) {
  for (const secret of secrets) expect(failure.message.toLowerCase()).not.toContain(secret.toLowerCase());
}

/** Every delivered callback, verified at `at`; a callback that does not verify fails the test. */
function verifiedReports(delivered: Delivered[], at: Date): BrebPayoutReport[] {
  return delivered.map((callback, index) => {
    const report = verifyBrebCallback(SECRET, callback.body, callback.headers, at);
    if (!report) throw new Error(`callback ${index} does not verify: ${callback.body}`);
    return report;
  });
}

describe("the local BRE-B provider through the HTTP adapter", () => {
  it("quotes the sandbox rates (3912.45 COP per USDC, 1 per COPm), overridable, and refuses another token", async () => {
    const { adapter } = await provider();
    expect(await adapter.rate("USDC")).toEqual({ token: "USDC", copPerUnit: "3912.45" });
    expect(await adapter.rate("COPm")).toEqual({ token: "COPm", copPerUnit: "1" });
    const other = await failureOf(adapter.rate("EUR" as BrebToken));
    expect([other.kind, other.provider]).toEqual(["unavailable", "breb"]);
    expect(other.message).toMatch(/HTTP 404/);

    const overridden = await provider({ rates: { USDC: "4000.5" } });
    expect(await overridden.adapter.rate("USDC")).toEqual({ token: "USDC", copPerUnit: "4000.5" });
    expect(await overridden.adapter.rate("COPm")).toEqual({ token: "COPm", copPerUnit: "1" });
  });

  it("gives its deposit address (Hardhat account #3, given gas by the operator) for both tokens on its chain only", async () => {
    const { local, adapter } = await provider();
    expect(local.depositAddress).toBe(DEPOSIT_ADDRESS);
    expect(await adapter.depositAddress({ token: "USDC", chainId: destination.chainId })).toBe(
      DEPOSIT_ADDRESS,
    );
    expect(await adapter.depositAddress({ token: "COPm", chainId: destination.chainId })).toBe(
      DEPOSIT_ADDRESS,
    );
    const elsewhere = await failureOf(adapter.depositAddress({ token: "USDC", chainId: 1 }));
    expect(elsewhere.kind).toBe("unavailable");
    expect(elsewhere.message).toMatch(/HTTP 404/);
    // Gas for its refunds: nobody else funds Hardhat's account #3 on the sandbox chains.
    const gas = await sandboxPublicClient(destination).getBalance({ address: DEPOSIT_ADDRESS });
    expect(gas).toBeGreaterThanOrEqual(parseUnits("5", 18));
  });

  it("resolves keys: the owner's name as sent, 0000… not found, an owner name with 'mismatch' to another holder", async () => {
    const { adapter } = await provider();
    expect(await adapter.resolveKey({ breBKey: KEY, accountOwnerName: OWNER })).toEqual({
      found: true,
      holderName: OWNER,
    });
    expect(await adapter.resolveKey({ breBKey: "0000123456", accountOwnerName: OWNER })).toEqual({
      found: false,
    });
    for (const name of ["Juana mismatch", "MISMATCH Pérez", "Carlos MisMatch"]) {
      expect(await adapter.resolveKey({ breBKey: KEY, accountOwnerName: name })).toEqual({
        found: true,
        holderName: "Titular Distinto",
      });
    }
  });

  it("takes a real deposit: processing, completed once due, each state a verified callback; the same payoutId answers the same payout", async () => {
    const { local, adapter, clock, delivered } = await provider();
    const hash = await deposit("USDC", USDC("10"));
    const request = payoutRequest({ depositTxHash: hash });

    const submitted = await adapter.submit(request);
    expect(submitted).toEqual({
      payoutId: request.payoutId,
      providerPayoutId: expect.stringMatching(/^bpo_/),
      status: "processing",
      updatedAt: clock.now().toISOString(),
    });
    expect(await adapter.submit(request)).toEqual(submitted);
    expect(await adapter.status(request.payoutId)).toEqual(submitted);

    // Not yet due: nothing moves, but the processing callback has gone out.
    clock.advance(1_999);
    await local.settle();
    expect(await adapter.status(request.payoutId)).toEqual(submitted);
    expect(verifiedReports(delivered, clock.now())).toEqual([submitted]);

    clock.advance(1);
    await local.settle();
    const completed = await adapter.status(request.payoutId);
    expect(completed).toEqual({
      ...submitted,
      status: "completed",
      brebTransactionId: expect.stringMatching(/^BREB-\d+$/),
      updatedAt: clock.now().toISOString(),
    });
    expect(verifiedReports(delivered, clock.now())).toEqual([submitted, completed]);
    expect(new Set(delivered.map((callback) => callback.headers["webhook-id"])).size).toBe(2);
    // Submitted again after completion (say, a retry after a lost answer): the same payout, no new one.
    expect(await adapter.submit({ ...request, amount: "1" })).toEqual(completed);
    await local.settle();
    expect(delivered).toHaveLength(2);
  });

  it("refuses a deposit of the wrong amount, to another address, of another token, unknown or already used: 422 → ProviderFailure, no payout", async () => {
    const { adapter } = await provider();
    const wrongAmount = payoutRequest({
      depositTxHash: await deposit("USDC", USDC("5")),
      amount: USDC("6").toString(),
    });
    const overpaid = payoutRequest({
      depositTxHash: await deposit("USDC", USDC("7")),
      amount: USDC("6").toString(),
    });
    const elsewhere = payoutRequest({ depositTxHash: await deposit("USDC", USDC("10"), freshAddress()) });
    const otherToken = payoutRequest({ depositTxHash: await deposit("COPm", USDC("10")) });
    const unknown = payoutRequest({ depositTxHash: `0x${"ab".repeat(32)}` });
    const cases: Array<[BrebPayoutRequest, RegExp]> = [
      [wrongAmount, /transfers 5000000, not 6000000, to the deposit address/],
      [overpaid, /transfers 7000000, not 6000000, to the deposit address/],
      [elsewhere, /transfers no 0x[0-9a-fA-F]{40} to the deposit address/],
      [otherToken, /transfers no 0x[0-9a-fA-F]{40} to the deposit address/],
      [unknown, /no transaction 0xabab/],
      [
        { ...wrongAmount, payoutId: `${wrongAmount.payoutId}_chain`, chainId: 1 },
        /deposits are taken on chain/,
      ],
    ];
    for (const [request, reason] of cases) {
      const failure = await failureOf(adapter.submit(request));
      expect({ kind: failure.kind, provider: failure.provider }).toEqual({
        kind: "no_route",
        provider: "breb",
      });
      expect(failure.message).toMatch(/^the provider refused the payout: /);
      expect(failure.message).toMatch(reason);
      expectNoSecrets(failure);
      // Nothing was taken under that id.
      expect((await failureOf(adapter.status(request.payoutId))).message).toMatch(/has no payout/);
    }

    // A deposit pays for one payout only.
    const hash = await deposit("USDC", USDC("10"));
    await adapter.submit(payoutRequest({ depositTxHash: hash }));
    const twice = await failureOf(adapter.submit(payoutRequest({ depositTxHash: hash })));
    expect(twice.kind).toBe("no_route");
    expect(twice.message).toMatch(/already paid for another payout/);
  });

  it("fails a 9999… key, then refunds the deposit with a real transfer back to the refund address", async () => {
    const { local, adapter, clock, delivered } = await provider();
    const amount = COPM("4000");
    const refundAddress = freshAddress();
    const request = payoutRequest({
      breBKey: "9999001122",
      token: "COPm",
      amount: amount.toString(),
      destinationCop: "4000",
      refundAddress,
      depositTxHash: await deposit("COPm", amount),
    });
    const submitted = await adapter.submit(request);
    expect(submitted.status).toBe("processing");

    clock.advance(2_000);
    await local.settle();
    const failed = await adapter.status(request.payoutId);
    expect(failed).toEqual({
      ...submitted,
      status: "failed",
      failureReason: expect.stringMatching(/rejected/),
      updatedAt: clock.now().toISOString(),
    });
    expect(failed.failureReason).not.toContain(request.breBKey);
    expect(await balanceOf(tokens.COPm, refundAddress)).toBe(0n);

    clock.advance(2_000);
    await local.settle();
    const refunded = await adapter.status(request.payoutId);
    expect(refunded).toEqual({
      ...failed,
      status: "refunded",
      refundTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      updatedAt: clock.now().toISOString(),
    });
    const receipt = await sandboxPublicClient(destination).getTransactionReceipt({
      hash: refunded.refundTxHash as Hex,
    });
    expect(receipt.status).toBe("success");
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
    expect(transfers.map((log) => ({ token: log.address.toLowerCase(), ...log.args }))).toEqual([
      { token: tokens.COPm.toLowerCase(), from: DEPOSIT_ADDRESS, to: refundAddress, value: amount },
    ]);
    expect(await balanceOf(tokens.COPm, refundAddress)).toBe(amount);

    expect(verifiedReports(delivered, clock.now())).toEqual([submitted, failed, refunded]);
    // Final: nothing more happens, and no second refund goes out.
    clock.advance(60_000);
    await local.settle();
    expect(await balanceOf(tokens.COPm, refundAddress)).toBe(amount);
    expect(delivered).toHaveLength(3);
  });

  it("refunds on request: a deposit it never took, once, a payout it is paying, and never one it paid", async () => {
    const { local, adapter, clock } = await provider();
    const refundAddress = freshAddress();
    // A deposit the provider never took as a payout (it came late): checked, then sent back.
    const late = payoutRequest({
      refundAddress,
      depositTxHash: await deposit("USDC", USDC("6")),
      amount: USDC("6").toString(),
    });
    const asked = await adapter.refund(late);
    expect(asked).toMatchObject({
      payoutId: late.payoutId,
      status: "failed",
      failureReason: expect.stringMatching(/service's request/),
    });
    expect(await adapter.refund(late)).toEqual(asked);
    await local.settle();
    const refunded = await adapter.status(late.payoutId);
    expect(refunded).toMatchObject({
      status: "refunded",
      refundTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(await balanceOf(tokens.USDC, refundAddress)).toBe(USDC("6"));
    expect(await adapter.refund(late)).toEqual(refunded);
    await local.settle();
    expect(await balanceOf(tokens.USDC, refundAddress)).toBe(USDC("6"));

    // A payout being paid is failed now and refunded; a paid one is refused (no_route).
    const paying = payoutRequest({ depositTxHash: await deposit("USDC", USDC("10")) });
    await adapter.submit(paying);
    expect((await adapter.refund(paying)).status).toBe("failed");
    const paid = payoutRequest({ depositTxHash: await deposit("USDC", USDC("10")) });
    await adapter.submit(paid);
    clock.advance(2_000);
    await local.settle();
    expect((await adapter.status(paid.payoutId)).status).toBe("completed");
    const refused = await failureOf(adapter.refund(paid));
    expect(refused.kind).toBe("no_route");
    expect(refused.message).toMatch(/was paid/);
    // A deposit that does not check out is refused too, and nothing is sent.
    const bogus = await failureOf(adapter.refund(payoutRequest({ depositTxHash: `0x${"ee".repeat(32)}` })));
    expect(bogus.kind).toBe("no_route");
  });

  it("moves payouts along on its own with the default autoSettle, and POSTs callbacks to callbackUrl", async () => {
    const receiver = await startWebhookReceiver({ path: "/callbacks/breb" });
    cleanups.push(() => receiver.close());
    const local = await startLocalBrebProvider({
      callbackSecret: SECRET,
      callbackUrl: receiver.url,
      chain: { chainId: destination.chainId, rpcUrl: destination.rpcUrl, tokens },
      operatorKey: chains.network.operator.privateKey,
      completeAfterMs: 200,
    });
    cleanups.push(() => local.close());
    const adapter = httpBrebProvider({ baseUrl: local.url, apiKey: local.apiKey, timeoutMs: 5_000 });
    const request = payoutRequest({ depositTxHash: await deposit("USDC", USDC("10")) });
    await adapter.submit(request);
    const deadline = Date.now() + 10_000;
    while ((await adapter.status(request.payoutId)).status !== "completed" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await adapter.status(request.payoutId)).status).toBe("completed");
    while (receiver.received.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      receiver.received.map(
        (callback) => verifyBrebCallback(SECRET, callback.body, { ...callback.headers }, new Date())?.status,
      ),
    ).toEqual(["processing", "completed"]);
  });

  it("retries a refused callback under the same id, a bounded number of times", async () => {
    let answered = 0;
    const { local, adapter, clock, delivered } = await provider({
      deliver: async (body, headers) => {
        delivered.push({ body, headers });
        answered += 1;
        return { status: answered <= 2 ? 503 : 200 };
      },
    });
    await adapter.submit(payoutRequest({ depositTxHash: await deposit("USDC", USDC("10")) }));
    await local.settle();
    expect(delivered).toHaveLength(3);
    expect(new Set(delivered.map((callback) => callback.headers["webhook-id"])).size).toBe(1);
    expect(verifiedReports(delivered, clock.now()).map((report) => report.status)).toEqual([
      "processing",
      "processing",
      "processing",
    ]);

    const down = await provider({
      deliver: async (body, headers) => {
        delivered.push({ body, headers });
        return { status: 500 };
      },
    });
    delivered.length = 0;
    await down.adapter.submit(payoutRequest({ depositTxHash: await deposit("USDC", USDC("10")) }));
    await down.local.settle();
    expect(delivered).toHaveLength(4);
  });

  it("keeps its payouts in the state file across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "breb-provider-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const stateFile = join(dir, "payouts.json");
    const first = await provider({ stateFile });
    const request = payoutRequest({ depositTxHash: await deposit("USDC", USDC("10")) });
    const submitted = await first.adapter.submit(request);
    await first.local.close();

    const second = await provider({ stateFile, now: () => first.clock.now() });
    expect(await second.adapter.status(request.payoutId)).toEqual(submitted);
    expect(await second.adapter.submit(request)).toEqual(submitted);
    first.clock.advance(2_000);
    await second.local.settle();
    expect((await second.adapter.status(request.payoutId)).status).toBe("completed");

    const third = await provider();
    expect((await failureOf(third.adapter.status(request.payoutId))).message).toMatch(/has no payout/);
  });

  it("answers 401 without the right Bearer key, and the adapter's failure names no key", async () => {
    const { local } = await provider();
    expect((await fetch(`${local.url}/rates/USDC`)).status).toBe(401);
    const wrongKey = "breb_wrong_key_0123456789";
    const adapter = httpBrebProvider({ baseUrl: local.url, apiKey: wrongKey, timeoutMs: 5_000 });
    const failure = await failureOf(adapter.resolveKey({ breBKey: KEY, accountOwnerName: OWNER }));
    expect(failure.kind).toBe("unavailable");
    expect(failure.message).toMatch(/HTTP 401 \(API key refused\)/);
    expectNoSecrets(failure, [wrongKey, KEY, OWNER, API_KEY]);
  });
});

describe("verifyBrebCallback", () => {
  const report: BrebPayoutReport = {
    payoutId: "pay_1",
    providerPayoutId: "bpo_1",
    status: "completed",
    brebTransactionId: "BREB-000000000001",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
  const body = JSON.stringify({ type: "payout.status", data: report });
  const signedAt = new Date("2026-01-01T00:00:00Z");
  const signed = (text: string, at = signedAt, secret = SECRET) => {
    const id = "msg_test_1";
    return {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, at, text),
    };
  };

  it("accepts a genuine callback within five minutes either way", () => {
    for (const offsetMs of [0, -299_000, 299_000]) {
      const now = new Date(signedAt.getTime() + offsetMs);
      expect(verifyBrebCallback(SECRET, body, signed(body), now)).toEqual(report);
    }
  });

  it("refuses a tampered body, a wrong secret and a stale or future timestamp", () => {
    const headers = signed(body);
    const tampered = body.replace('"completed"', '"refunded"');
    expect(tampered).not.toBe(body);
    expect(verifyBrebCallback(SECRET, tampered, headers, signedAt)).toBeUndefined();
    expect(verifyBrebCallback(OTHER_SECRET, body, headers, signedAt)).toBeUndefined();
    expect(verifyBrebCallback(SECRET, body, signed(body, signedAt, OTHER_SECRET), signedAt)).toBeUndefined();
    for (const offsetMs of [-301_000, 301_000, 3_600_000]) {
      expect(
        verifyBrebCallback(SECRET, body, headers, new Date(signedAt.getTime() + offsetMs)),
      ).toBeUndefined();
    }
    const moved = { ...headers, "webhook-timestamp": String(signedAt.getTime() / 1000 + 1) };
    expect(verifyBrebCallback(SECRET, body, moved, signedAt)).toBeUndefined();
  });

  it("is undefined, never a throw, for signed bodies of the wrong shape", () => {
    const signedBody = (payload: unknown) => {
      const text = JSON.stringify(payload);
      return () => verifyBrebCallback(SECRET, text, signed(text), signedAt);
    };
    const cases = [
      signedBody({ type: "kyc.status", data: report }),
      signedBody({ type: "payout.status", data: { ...report, status: "paid" } }),
      signedBody({ type: "payout.status", data: { ...report, brebTransactionId: undefined } }),
      signedBody({ type: "payout.status", data: { ...report, status: "refunded" } }),
      signedBody({ type: "payout.status", data: { ...report, updatedAt: "yesterday" } }),
      signedBody({ type: "payout.status" }),
      signedBody(null),
      () => verifyBrebCallback(SECRET, "not json", signed("not json"), signedAt),
      () => verifyBrebCallback(SECRET, body, {}, signedAt),
      () => verifyBrebCallback("whsec_%%%", body, signed(body), signedAt),
    ];
    for (const [index, attempt] of cases.entries()) {
      expect(attempt, `case ${index}`).not.toThrow();
      expect(attempt(), `case ${index}`).toBeUndefined();
    }
    expect(signedBody({ type: "payout.status", data: report })()).toEqual(report);
  });
});

describe("BRE-B adapter failures", () => {
  it("is unavailable for every call when the provider is down", async () => {
    const { local } = await provider();
    await local.close();
    const adapter = httpBrebProvider({ baseUrl: local.url, apiKey: API_KEY, timeoutMs: TIMEOUT_MS });
    const calls = [
      () => adapter.rate("USDC"),
      () => adapter.depositAddress({ token: "USDC", chainId: destination.chainId }),
      () => adapter.resolveKey({ breBKey: KEY, accountOwnerName: OWNER }),
      () => adapter.submit(payoutRequest({ depositTxHash: `0x${"cd".repeat(32)}` })),
      () => adapter.status("pay_1"),
    ];
    for (const call of calls) {
      const failure = await failureOf(call());
      expect({ kind: failure.kind, provider: failure.provider }).toEqual({
        kind: "unavailable",
        provider: "breb",
      });
      expect(failure.message).toMatch(/could not be reached/);
      expectNoSecrets(failure);
    }
  });

  it("is unavailable when the provider answers slower than the timeout", async () => {
    const slow = await startRecordedHttpServer();
    cleanups.push(() => slow.close());
    slow.answerWith("hang");
    const adapter = httpBrebProvider({ baseUrl: slow.baseUrl, apiKey: API_KEY, timeoutMs: TIMEOUT_MS });
    for (const call of [
      () => adapter.rate("USDC"),
      () => adapter.submit(payoutRequest({ depositTxHash: `0x${"cd".repeat(32)}` })),
      () => adapter.status("pay_1"),
    ]) {
      const startedAt = performance.now();
      const failure = await failureOf(call());
      expect(failure.kind).toBe("unavailable");
      expect(failure.message).toMatch(/did not answer within 300 ms/);
      expect(performance.now() - startedAt).toBeLessThan(TIMEOUT_MS + 800);
    }
  });

  it("sends the documented requests with the Bearer key", async () => {
    const scripted = await startRecordedHttpServer();
    cleanups.push(() => scripted.close());
    const adapter = httpBrebProvider({ baseUrl: `${scripted.baseUrl}/`, apiKey: API_KEY, timeoutMs: 2_000 });
    scripted.answerWith({ status: 200, body: JSON.stringify({ token: "COPm", copPerUnit: "1" }) });
    await adapter.rate("COPm");
    scripted.answerWith({ status: 200, body: JSON.stringify({ address: DEPOSIT_ADDRESS }) });
    await adapter.depositAddress({ token: "USDC", chainId: 42220 });
    scripted.answerWith({ status: 200, body: JSON.stringify({ found: false }) });
    await adapter.resolveKey({ breBKey: KEY, accountOwnerName: OWNER });
    const report = {
      payoutId: "pay/1",
      providerPayoutId: "bpo_1",
      status: "processing",
      updatedAt: new Date().toISOString(),
    };
    scripted.answerWith({ status: 201, body: JSON.stringify(report) });
    await adapter.submit(payoutRequest({ payoutId: "pay/1", depositTxHash: `0x${"cd".repeat(32)}` }));
    scripted.answerWith({ status: 200, body: JSON.stringify(report) });
    await adapter.status("pay/1");
    expect(
      scripted.received.map((request) => [
        request.method,
        `${request.url.pathname}${request.url.search}`,
        request.headers.authorization,
      ]),
    ).toEqual([
      ["GET", "/rates/COPm", `Bearer ${API_KEY}`],
      ["GET", "/deposit-address?token=USDC&chainId=42220", `Bearer ${API_KEY}`],
      ["POST", "/keys/resolve", `Bearer ${API_KEY}`],
      ["POST", "/payouts", `Bearer ${API_KEY}`],
      ["GET", "/payouts/pay%2F1", `Bearer ${API_KEY}`],
    ]);
    expect(scripted.received[2]?.headers["content-type"]).toBe("application/json");
  });

  it("is unavailable on 429, 5xx, other statuses and answers of the wrong shape, naming no key, owner or API key", async () => {
    const scripted = await startRecordedHttpServer();
    cleanups.push(() => scripted.close());
    const adapter = httpBrebProvider({ baseUrl: scripted.baseUrl, apiKey: API_KEY, timeoutMs: 2_000 });
    const echo = JSON.stringify({ error: `bad ${KEY} for ${OWNER.toUpperCase()} with ${API_KEY}` });
    const report = {
      payoutId: "pay_1",
      providerPayoutId: "bpo_1",
      status: "processing",
      updatedAt: new Date().toISOString(),
    };
    const submit = () =>
      adapter.submit(payoutRequest({ payoutId: "pay_1", depositTxHash: `0x${"cd".repeat(32)}` }));
    const resolve = () => adapter.resolveKey({ breBKey: KEY, accountOwnerName: OWNER });
    const cases: Array<[() => Promise<unknown>, { status: number; body: string }]> = [
      [submit, { status: 500, body: echo }],
      [submit, { status: 503, body: "<html>down</html>" }],
      [submit, { status: 429, body: echo }],
      [submit, { status: 400, body: echo }],
      [submit, { status: 409, body: echo }],
      [submit, { status: 201, body: "not json" }],
      [submit, { status: 201, body: JSON.stringify({ ...report, status: "paid", note: echo }) }],
      [submit, { status: 201, body: JSON.stringify({ ...report, status: "completed" }) }],
      [submit, { status: 200, body: JSON.stringify({ ...report, payoutId: "pay_2" }) }],
      [resolve, { status: 500, body: echo }],
      [resolve, { status: 200, body: JSON.stringify({ found: true, echo }) }],
      [resolve, { status: 200, body: JSON.stringify({ found: "yes" }) }],
      [() => adapter.rate("USDC"), { status: 200, body: JSON.stringify({ token: "COPm", copPerUnit: "1" }) }],
      [
        () => adapter.rate("USDC"),
        { status: 200, body: JSON.stringify({ token: "USDC", copPerUnit: 3912.45 }) },
      ],
      [
        () => adapter.rate("USDC"),
        { status: 200, body: JSON.stringify({ token: "USDC", copPerUnit: "abc" }) },
      ],
      [
        () => adapter.depositAddress({ token: "USDC", chainId: 1 }),
        { status: 200, body: '{"address":"nowhere"}' },
      ],
      [() => adapter.status("pay_1"), { status: 404, body: echo }],
      [
        () => adapter.status("pay_1"),
        { status: 200, body: JSON.stringify({ ...report, payoutId: "pay_2" }) },
      ],
    ];
    for (const [index, [call, answer]] of cases.entries()) {
      scripted.answerWith(answer);
      const failure = await failureOf(call());
      expect({ index, kind: failure.kind }).toEqual({ index, kind: "unavailable" });
      expectNoSecrets(failure);
    }

    // A 422 on submit is the provider's refusal of this payout, its words kept without the secrets.
    scripted.answerWith({ status: 422, body: echo });
    const refused = await failureOf(submit());
    expect(refused.kind).toBe("no_route");
    expect(refused.message).toMatch(/^the provider refused the payout: bad \[redacted\] for \[redacted\]/);
    expectNoSecrets(refused);
  });
});

describe("docs/breb-provider.openapi.yaml", () => {
  it("documents the adapter's five operations, the callback and the sandbox values", () => {
    const text = readFileSync("docs/breb-provider.openapi.yaml", "utf8");
    expect(text).toMatch(/^openapi: 3\.1\.0$/m);
    for (const path of [
      "/rates/{token}",
      "/deposit-address",
      "/keys/resolve",
      "/payouts",
      "/payouts/{payoutId}",
    ]) {
      expect(text).toContain(`\n  ${path}:\n`);
    }
    expect(text).toContain("\n  payout.status:\n");
    for (const value of ["3912.45", DEPOSIT_ADDRESS, "`0000`", "`mismatch`", "Titular Distinto", "`9999`"]) {
      expect(text).toContain(value);
    }
  });

  it("passes Redocly's recommended lint with no errors", async () => {
    const result = await run(
      "node_modules/.bin/redocly",
      ["lint", "docs/breb-provider.openapi.yaml", "--format=json", "--extends=recommended"],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
    ).catch((error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }));
    const report = JSON.parse(result.stdout) as {
      problems: Array<{ severity: string; ruleId: string; message: string }>;
    };
    expect(report.problems.filter((problem) => problem.severity === "error")).toEqual([]);
  }, 60_000);
});
