import { count, eq } from "drizzle-orm";
import { erc20Abi, type Hex, keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type VerifyBrebOtpResponse, route as verifyOtp } from "../../functions/identity/verify-otp";
import { route as confirmPayout } from "../../functions/payouts/confirm-payout";
import { brebQuotes } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { clientsOn } from "../harness/burns";
import { rememberWallet, sendCode, verifyCode } from "../harness/identity";
import {
  approvedUser,
  confirmRequest,
  createdPayout,
  depositWith,
  fund,
  type PayoutCreation,
  payoutBody,
  payoutChain,
  payoutRow,
  payoutRowsOf,
  quoteFor,
  readPayout,
  requestPayout,
  requestQuote,
  sendDeposit,
  units,
  withPayoutProvider,
  withProviderDown,
} from "../harness/payouts";
import { createTenant, type Tenant } from "../harness/tenants";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true, payouts: true, identity: true });
}, 60_000);
afterAll(() => h.close());

/** The response is the documented refusal, and the organization still has no payout. */
async function expectRefused(
  response: Response,
  tenant: Tenant,
  status: number,
  code: string,
  message?: RegExp,
) {
  const error = await errorOf(response);
  expect({ status: error.status, code: error.code }, error.message).toEqual({ status, code });
  if (message) expect(error.message).toMatch(message);
  expect(await payoutRowsOf(h, tenant.organizationId)).toEqual([]);
  return error;
}

describe("creating a payout: each refusal, in order, creates nothing", () => {
  it("QUOTE_NOT_FOUND (404) for an unknown quote and for another organization's quote", async () => {
    const tenant = await createTenant(h);
    const stranger = await createTenant(h, "Stranger");
    const user = await approvedUser(h, tenant, {});
    await expectRefused(
      await requestPayout(h, tenant, "k-unknown", payoutBody("bq_00000000000000000000000000", user)),
      tenant,
      404,
      "QUOTE_NOT_FOUND",
    );
    const foreign = await quoteFor(h, stranger);
    await expectRefused(
      await requestPayout(h, tenant, "k-foreign", payoutBody(foreign.quoteId, user)),
      tenant,
      404,
      "QUOTE_NOT_FOUND",
    );
  });

  it("QUOTE_EXPIRED (409) once the quote's BREB_QUOTE_SECONDS have passed", async () => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const quote = await quoteFor(h, tenant);
    h.clock.set(new Date(Date.parse(quote.expiresAt) + 1_000));
    await expectRefused(
      await requestPayout(h, tenant, "k-expired", payoutBody(quote.quoteId, user)),
      tenant,
      409,
      "QUOTE_EXPIRED",
    );
  });

  it("QUOTE_ALREADY_USED (409) for a used quote under another key, which creates no second payout", async () => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const quote = await quoteFor(h, tenant);
    expect((await requestPayout(h, tenant, "k-first", payoutBody(quote.quoteId, user))).status).toBe(201);
    const second = await errorOf(await requestPayout(h, tenant, "k-second", payoutBody(quote.quoteId, user)));
    expect([second.status, second.code]).toEqual([409, "QUOTE_ALREADY_USED"]);
    expect(await payoutRowsOf(h, tenant.organizationId)).toHaveLength(1);
  });

  it("IDEMPOTENCY_CONFLICT (409) for the same key with another body; the same body replays the first answer", async () => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const quote = await quoteFor(h, tenant);
    const first = await requestPayout(h, tenant, "k-same", payoutBody(quote.quoteId, user));
    expect(first.status).toBe(201);
    const text = await first.text();
    const conflict = await errorOf(
      await requestPayout(
        h,
        tenant,
        "k-same",
        payoutBody(quote.quoteId, user, { accountOwnerName: "Otra Persona" }),
      ),
    );
    expect([conflict.status, conflict.code]).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
    const replay = await requestPayout(h, tenant, "k-same", payoutBody(quote.quoteId, user));
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(text);
    expect(await payoutRowsOf(h, tenant.organizationId)).toHaveLength(1);
  });

  it("KYC_REQUIRED (403) for a user who never started KYC", async () => {
    const tenant = await createTenant(h);
    const quote = await quoteFor(h, tenant);
    const stranger = rememberWallet(privateKeyToAccount(generatePrivateKey()));
    const error = await expectRefused(
      await requestPayout(h, tenant, "k-nokyc", payoutBody(quote.quoteId, stranger)),
      tenant,
      403,
      "KYC_REQUIRED",
      /not_started/,
    );
    expect(error.body.error.nextAction).toBe("COMPLETE_KYC");
  });

  it("KYC_REQUIRED (403) carrying the provider's kycLink and termsLink for a pending user; the key then creates once approved", async () => {
    const tenant = await createTenant(h);
    const user = rememberWallet(privateKeyToAccount(generatePrivateKey()));
    const config = h.deps.config as { MOCK_KYC_AUTO_APPROVE: boolean };
    config.MOCK_KYC_AUTO_APPROVE = false; // mock mode as live: the sandbox KYC provider decides
    let kyc: VerifyBrebOtpResponse["kyc"];
    try {
      await sendCode(h, tenant, "pending@example.com", user.address);
      const verified = await verifyCode(h, tenant, "pending@example.com", "123456", user.address);
      kyc = (await bodyOf(verified, verifyOtp, 200)).kyc;
    } finally {
      config.MOCK_KYC_AUTO_APPROVE = true;
    }
    expect(kyc.status).toBe("pending");
    expect(kyc.kycLink).toMatch(/^http/);
    expect(kyc.termsLink).toMatch(/^http/);

    const quote = await quoteFor(h, tenant);
    const error = await expectRefused(
      await requestPayout(h, tenant, "k-pending", payoutBody(quote.quoteId, user)),
      tenant,
      403,
      "KYC_REQUIRED",
    );
    expect(error.body.error).toMatchObject({ kycLink: kyc.kycLink, termsLink: kyc.termsLink });

    // KYC comes before the key's shape, and the quote before KYC.
    await expectRefused(
      await requestPayout(
        h,
        tenant,
        "k-pending-badkey",
        payoutBody(quote.quoteId, user, { breBKey: "nope" }),
      ),
      tenant,
      403,
      "KYC_REQUIRED",
    );
    await expectRefused(
      await requestPayout(
        h,
        tenant,
        "k-pending-noquote",
        payoutBody("bq_missing", user, { breBKey: "nope" }),
      ),
      tenant,
      404,
      "QUOTE_NOT_FOUND",
    );

    // A refusal stores nothing under its key: once the user is approved the same key creates.
    await sendCode(h, tenant, "approved-later@example.com", user.address);
    expect((await verifyCode(h, tenant, "approved-later@example.com", "123456", user.address)).status).toBe(
      200,
    );
    expect((await requestPayout(h, tenant, "k-pending", payoutBody(quote.quoteId, user))).status).toBe(201);
  });

  it.each([
    ["words", "not a key"],
    ["a 4-digit number", "1234"],
    ["an ID starting with 0 that is not a merchant code", "0123456"],
    ["a mobile number with a digit too many", "+5730012345678"],
    ["a bare @", "@"],
    ["an alias of 20 characters", `@${"a".repeat(20)}`],
  ])("INVALID_BREB_KEY (400) for %s", async (_, breBKey) => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const quote = await quoteFor(h, tenant);
    await expectRefused(
      await requestPayout(h, tenant, `k-${breBKey}`, payoutBody(quote.quoteId, user, { breBKey })),
      tenant,
      400,
      "INVALID_BREB_KEY",
    );
  });

  it.each([
    ["an owner name the provider resolves to another holder", { accountOwnerName: "Ana Mismatch" }],
    ["a key no account holds", { breBKey: "0000123456" }],
    // Mock mode's magic: any key starting with 0000, whatever its length (issue 20, finding 13).
    ["the shortest magic key, 0000", { breBKey: "0000" }],
    ["a magic key longer than any real key", { breBKey: "00001234567890123456789" }],
    ["a magic key with letters after it", { breBKey: "0000-not-a-key" }],
  ])("destination_mismatch (409, DO_NOT_SEND_FUNDS) for %s", async (_, change) => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const quote = await quoteFor(h, tenant);
    const error = await expectRefused(
      await requestPayout(h, tenant, "k-mismatch", payoutBody(quote.quoteId, user, change)),
      tenant,
      409,
      "destination_mismatch",
    );
    expect(error.body.error.nextAction).toBe("DO_NOT_SEND_FUNDS");
  });

  it("destination_mismatch when the provider's holder is someone else; accents, case, punctuation and spacing do not matter", async () => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const resolvingTo = (holderName: string) =>
      ((real) => ({ ...real, resolveKey: async () => ({ found: true, holderName }) })) as Parameters<
        typeof withPayoutProvider
      >[1];
    const refused = await quoteFor(h, tenant);
    await withPayoutProvider(h, resolvingTo("José Pérez Gómez Ruiz"), async () => {
      await expectRefused(
        await requestPayout(
          h,
          tenant,
          "k-other-holder",
          payoutBody(refused.quoteId, user, { accountOwnerName: "José Pérez Gómez" }),
        ),
        tenant,
        409,
        "destination_mismatch",
      );
    });
    await withPayoutProvider(h, resolvingTo("JOSE PEREZ GOMEZ"), async () => {
      const created = await requestPayout(
        h,
        tenant,
        "k-same-holder",
        payoutBody(refused.quoteId, user, { accountOwnerName: "  josé  Pérez-Gómez " }),
      );
      expect(created.status, await created.clone().text()).toBe(201);
    });
  });

  it("PROVIDER_UNAVAILABLE (503, retryable) when the provider cannot resolve the key", async () => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const quote = await quoteFor(h, tenant);
    const error = await withProviderDown(h, async () =>
      expectRefused(
        await requestPayout(h, tenant, "k-down", payoutBody(quote.quoteId, user)),
        tenant,
        503,
        "PROVIDER_UNAVAILABLE",
      ),
    );
    expect(error.retryable).toBe(true);
    expect((await requestPayout(h, tenant, "k-down", payoutBody(quote.quoteId, user))).status).toBe(201);
  });

  it("refuses a missing Idempotency-Key and a lower-case user address before anything else", async () => {
    const tenant = await createTenant(h);
    const user = await approvedUser(h, tenant, {});
    const quote = await quoteFor(h, tenant);
    const noKey = await errorOf(await requestPayout(h, tenant, "", payoutBody(quote.quoteId, user)));
    expect([noKey.status, noKey.code]).toEqual([400, "INVALID_IDEMPOTENCY_KEY"]);
    await expectRefused(
      await requestPayout(
        h,
        tenant,
        "k-lower",
        payoutBody(quote.quoteId, user, { userAddress: user.address.toLowerCase() }),
      ),
      tenant,
      400,
      "INVALID_USER_ADDRESS",
    );
  });
});

describe("confirming a deposit: each check with a real transaction on the payout chain", () => {
  let tenant: Tenant;
  let user: ReturnType<typeof privateKeyToAccount>;
  let target: PayoutCreation;
  let other: PayoutCreation;
  beforeAll(async () => {
    tenant = await createTenant(h);
    user = await approvedUser(h, tenant, { usdc: "1000", copm: "1000" });
    target = await createdPayout(h, tenant, user);
    other = await createdPayout(h, tenant, user);
  }, 30_000);

  /** INVALID_DEPOSIT naming the check, and the payout exactly as it was. */
  async function expectInvalid(payout: PayoutCreation, hash: Hex, check: RegExp) {
    const error = await errorOf(await confirmRequest(h, tenant, payout.payout.payoutId, hash));
    expect([error.status, error.code], error.message).toEqual([400, "INVALID_DEPOSIT"]);
    expect(error.message).toMatch(check);
    const read = await readPayout(h, tenant, payout.payout.payoutId);
    expect(read).toMatchObject({ status: "awaiting_deposit", depositTxHash: null });
    expect(read.timeline.map((entry) => entry.status)).toEqual(["awaiting_deposit"]);
  }

  it("refuses an unknown hash", async () => {
    await expectInvalid(
      target,
      keccak256(toHex("no such transaction")),
      /no transaction with this hash exists/,
    );
  });

  it("refuses a reverted transaction (a deposit without the approval)", async () => {
    const hash = await depositWith(h, user, target, { approve: false, gas: 300_000n });
    const { reader } = clientsOn(payoutChain(h), user);
    expect((await reader.getTransactionReceipt({ hash })).status).toBe("reverted");
    await expectInvalid(target, hash, /reverted/);
  });

  it("refuses a transaction that is not a deposit (a plain transfer to the deposit address)", async () => {
    const { reader, wallet } = clientsOn(payoutChain(h), user);
    const hash = await wallet.writeContract({
      address: target.deposit.tokenAddress,
      abi: erc20Abi,
      functionName: "transfer",
      args: [target.deposit.depositAddress, units(target.deposit.amount)],
    });
    await reader.waitForTransactionReceipt({ hash });
    await expectInvalid(target, hash, /no PayoutDeposited event from the configured depositor/);
  });

  it("names the one field that is wrong, for each field of the deposit", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    await fund(h, tenant, stranger.address, { usdc: "100" });
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    const amount = units(target.deposit.providerAmount);
    const fee = units(target.deposit.serviceFee);
    const cases: Array<[string, () => Promise<Hex>, RegExp]> = [
      [
        "another payout's ref",
        () => depositWith(h, user, target, { payoutRef: other.deposit.payoutRef }),
        /another payout's reference/,
      ],
      ["payer", () => depositWith(h, stranger, target), /payer/],
      [
        "token (COPm for a USDC payout)",
        () => depositWith(h, user, target, { token: payoutChain(h).contracts.copm as Hex }),
        /: token\./,
      ],
      ["amount", () => depositWith(h, user, target, { amount: amount - 1n }), /: amount\./],
      ["fee", () => depositWith(h, user, target, { fee: fee - 1n }), /: fee\./],
      [
        "deposit address",
        () => depositWith(h, user, target, { depositAddress: elsewhere }),
        /depositAddress/,
      ],
      ["fee wallet", () => depositWith(h, user, target, { feeWallet: elsewhere }), /feeWallet/],
    ];
    for (const [what, deposit, check] of cases) {
      const hash = await deposit();
      const { reader } = clientsOn(payoutChain(h), user);
      expect((await reader.getTransactionReceipt({ hash })).status, what).toBe("success");
      await expectInvalid(target, hash, check);
    }
  });

  it("refuses a PayoutDeposited the token's Transfers do not back (a token that answers success and moves nothing)", async () => {
    // The real depositor emits PayoutDeposited with every field right once transferFrom "succeeds";
    // the token is swapped, for these two deposits only, for code that moves nothing: first one that
    // logs nothing, then one that logs the Transfer to the deposit address but not the fee's.
    const token = target.deposit.tokenAddress;
    const { reader } = clientsOn(payoutChain(h), user);
    const setCode = (code: Hex) =>
      reader.request({ method: "hardhat_setCode" as never, params: [token, code] as never });
    const original = await reader.getCode({ address: token });
    if (!original) throw new Error("no token code");
    const cases: Array<[Hex, RegExp]> = [
      ["0x00", /no Transfer pays the deposit address the amount/],
      [transferOnlyTo(target.deposit.depositAddress), /no Transfer pays the fee wallet the fee/],
    ];
    try {
      for (const [code, check] of cases) {
        await setCode(code);
        const hash = await depositWith(h, user, target, { approve: false });
        expect((await reader.getTransactionReceipt({ hash })).status).toBe("success");
        await expectInvalid(target, hash, check);
      }
    } finally {
      await setCode(original);
    }
    expect(await reader.getCode({ address: token })).toBe(original);
  });

  it("answers DEPOSIT_PENDING_CONFIRMATIONS (409, retryable, Retry-After) until the chain's confirmations, then confirms", async () => {
    const payout = await createdPayout(h, tenant, user);
    const chain = h.deps.chains.byRole("destination");
    if (!chain) throw new Error("no payout chain");
    const required = chain.confirmations;
    chain.confirmations = 3;
    try {
      const hash = await sendDeposit(h, user, payout);
      const early = await confirmRequest(h, tenant, payout.payout.payoutId, hash);
      const error = await errorOf(early);
      expect([error.status, error.code, error.retryable]).toEqual([
        409,
        "DEPOSIT_PENDING_CONFIRMATIONS",
        true,
      ]);
      expect(early.headers.get("retry-after")).toBe("5");
      expect((await payoutRow(h, payout.payout.payoutId))?.status).toBe("awaiting_deposit");
      const { reader } = clientsOn(payoutChain(h), user);
      await reader.request({ method: "hardhat_mine" as never, params: ["0x2"] as never });
      const late = await confirmRequest(h, tenant, payout.payout.payoutId, hash);
      expect((await bodyOf(late, confirmPayout, 200)).status).toBe("deposit_confirmed");
    } finally {
      chain.confirmations = required;
    }
  });

  it("answers another organization's used deposit as a deposit nobody used: INVALID_DEPOSIT, never TX_ALREADY_USED (issue 37, finding 1)", async () => {
    const stranger = await createTenant(h, "Stranger");
    const theirUser = await approvedUser(h, stranger, { usdc: "100" });
    const theirs = await createdPayout(h, stranger, theirUser);
    const used = await createdPayout(h, tenant, user);
    const usedHash = await sendDeposit(h, user, used);
    expect((await confirmRequest(h, tenant, used.payout.payoutId, usedHash)).status).toBe(200);
    const unused = await createdPayout(h, tenant, user);
    const unusedHash = await sendDeposit(h, user, unused);
    const onUsed = await errorOf(await confirmRequest(h, stranger, theirs.payout.payoutId, usedHash));
    const onUnused = await errorOf(await confirmRequest(h, stranger, theirs.payout.payoutId, unusedHash));
    expect([onUsed.status, onUsed.code]).toEqual([400, "INVALID_DEPOSIT"]);
    expect(onUsed.message).toBe(onUnused.message);
    expect((await readPayout(h, stranger, theirs.payout.payoutId)).status).toBe("awaiting_deposit");
  });

  it("TX_ALREADY_USED (409) for a hash that confirmed another payout; the same hash on its own payout answers it as it is", async () => {
    const first = await createdPayout(h, tenant, user);
    const second = await createdPayout(h, tenant, user);
    const hash = await sendDeposit(h, user, first);
    expect((await confirmRequest(h, tenant, first.payout.payoutId, hash)).status).toBe(200);
    const used = await errorOf(await confirmRequest(h, tenant, second.payout.payoutId, hash));
    expect([used.status, used.code]).toEqual([409, "TX_ALREADY_USED"]);
    // Upper-case hex is the same hash.
    const shouted = await errorOf(
      await confirmRequest(h, tenant, second.payout.payoutId, `0x${hash.slice(2).toUpperCase()}`),
    );
    expect([shouted.status, shouted.code]).toEqual([409, "TX_ALREADY_USED"]);
    expect((await payoutRow(h, second.payout.payoutId))?.status).toBe("awaiting_deposit");

    const again = await confirmRequest(h, tenant, first.payout.payoutId, hash);
    expect(again.status).toBe(200);
    const read = await readPayout(h, tenant, first.payout.payoutId);
    expect(await again.json()).toEqual(read);
    expect(read.timeline.map((entry) => entry.status)).toEqual(["awaiting_deposit", "deposit_confirmed"]);
  });

  it("refuses a second, different deposit on a confirmed payout and keeps the first", async () => {
    const payout = await createdPayout(h, tenant, user);
    const hash = await sendDeposit(h, user, payout);
    expect((await confirmRequest(h, tenant, payout.payout.payoutId, hash)).status).toBe(200);
    const another = await depositWith(h, user, payout);
    const error = await errorOf(await confirmRequest(h, tenant, payout.payout.payoutId, another));
    expect([error.status, error.code]).toEqual([400, "INVALID_DEPOSIT"]);
    expect((await payoutRow(h, payout.payout.payoutId))?.depositTxHash).toBe(hash.toLowerCase());
  });

  it("PAYOUT_EXPIRED (409) for a deposit mined after depositDeadline: the payout becomes refund_required", async () => {
    const payout = await createdPayout(h, tenant, user);
    h.clock.set(new Date(Date.parse(payout.payout.depositDeadline) + 1_000));
    const hash = await sendDeposit(h, user, payout); // the block carries the clock's time
    const before = h.jobs.pending().length;
    const error = await errorOf(await confirmRequest(h, tenant, payout.payout.payoutId, hash));
    expect([error.status, error.code]).toEqual([409, "PAYOUT_EXPIRED"]);
    const read = await readPayout(h, tenant, payout.payout.payoutId);
    expect(read).toMatchObject({ status: "refund_required", depositTxHash: hash.toLowerCase() });
    expect(read.timeline.map((entry) => entry.status)).toEqual(["awaiting_deposit", "refund_required"]);
    expect(h.jobs.pending().length).toBe(before); // nothing is handed to the provider
    // The same hash again answers the payout as it is.
    const again = await confirmRequest(h, tenant, payout.payout.payoutId, hash);
    expect((await bodyOf(again, confirmPayout, 200)).status).toBe("refund_required");
  });

  it("PAYOUT_NOT_FOUND (404) for an unknown payout, INVALID_REQUEST (400) for a malformed hash", async () => {
    const missing = await errorOf(
      await confirmRequest(h, tenant, "po_00000000000000000000000000", keccak256(toHex("x"))),
    );
    expect([missing.status, missing.code]).toEqual([404, "PAYOUT_NOT_FOUND"]);
    const malformed = await errorOf(await confirmRequest(h, tenant, target.payout.payoutId, "0x1234"));
    expect([malformed.status, malformed.code]).toEqual([400, "INVALID_REQUEST"]);
  });
});

describe("quoting: validation, limits and the provider", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(h);
  });

  const quoteRows = async () => {
    const [row] = await h.database.db
      .select({ n: count() })
      .from(brebQuotes)
      .where(eq(brebQuotes.organizationId, tenant.organizationId));
    return row?.n ?? 0;
  };

  async function expectQuoteRefused(destinationCop: string, fromToken: string, status: number, code: string) {
    const before = await quoteRows();
    const error = await errorOf(await requestQuote(h, tenant, destinationCop, fromToken));
    expect(
      { status: error.status, code: error.code },
      `${destinationCop} ${fromToken}: ${error.message}`,
    ).toEqual({
      status,
      code,
    });
    expect(await quoteRows()).toBe(before);
    return error;
  }

  it.each(["100.5", "4000.00", "1e5", "-4000", "0", "04000", "abc", ""])(
    "INVALID_AMOUNT (400) for destinationCop %j: whole pesos only",
    async (destinationCop) => {
      await expectQuoteRefused(destinationCop, "USDC", 400, "INVALID_AMOUNT");
    },
  );

  it("BELOW_MINIMUM (400) under 4,000 COP, for either token", async () => {
    for (const token of ["USDC", "COPm"]) {
      const error = await expectQuoteRefused("3999", token, 400, "BELOW_MINIMUM");
      expect(error.message).toMatch(/4,000 COP/);
    }
  });

  it("ABOVE_MAXIMUM (400) over BREB_MAX_COP; BREB_MAX_COP itself quotes", async () => {
    const max = h.deps.config.BREB_MAX_COP;
    await expectQuoteRefused(String(max + 1), "USDC", 400, "ABOVE_MAXIMUM");
    // Whole pesos however many digits: above the maximum, not a malformed amount.
    await expectQuoteRefused("100000000000000", "USDC", 400, "ABOVE_MAXIMUM");
    await expectQuoteRefused(`1${"0".repeat(40)}`, "COPm", 400, "ABOVE_MAXIMUM");
    expect((await requestQuote(h, tenant, String(max), "USDC")).status).toBe(200);
  });

  it.each(["USDT", "usdc", "COP", ""])(
    "INVALID_REQUEST (400) for fromToken %j: USDC or COPm only",
    async (token) => {
      await expectQuoteRefused("100000", token, 400, "INVALID_REQUEST");
    },
  );

  it("BELOW_MINIMUM (400) when the provider would receive less than 2 USDC, or its COPm equivalent", async () => {
    // 2 USDC at 3,912.45 COP less the provider's 0.5 % delivers 7,785.78 COP: 7,786 is the least.
    const usdc = await expectQuoteRefused("7785", "USDC", 400, "BELOW_MINIMUM");
    expect(usdc.message).toMatch(/at least 2 USDC/);
    // 2.000058 less its fee rounded up (0.010001) is worth 7,785.997 COP: one unit more, 2.000059.
    expect((await quoteFor(h, tenant, "7786", "USDC")).providerAmount).toBe("2.000059");
    // 2 USDC in COPm (1 COP each) is 7,824.9 COPm: 4,000 COP would send the provider 4,020.1.
    const copm = await expectQuoteRefused("4000", "COPm", 400, "BELOW_MINIMUM");
    expect(copm.message).toMatch(/at least 7824\.9 COPm/);
    await expectQuoteRefused("7785", "COPm", 400, "BELOW_MINIMUM");
    expect((await quoteFor(h, tenant, "7786", "COPm")).fromToken).toBe("COPm");
  });

  it("PROVIDER_UNAVAILABLE (503, retryable) when the provider is down and no rate is fresh; a fresh rate still quotes", async () => {
    expect((await quoteFor(h, tenant)).fromToken).toBe("USDC"); // the USDC rate is fresh now
    await withProviderDown(h, async () => {
      expect((await quoteFor(h, tenant)).cached).toBe(true);
      h.clock.advance((h.deps.config.BREB_RATE_CACHE_SECONDS + 1) * 1000);
      const error = await expectQuoteRefused("100000", "USDC", 503, "PROVIDER_UNAVAILABLE");
      expect(error.retryable).toBe(true);
      await expectQuoteRefused("100000", "COPm", 503, "PROVIDER_UNAVAILABLE");
    });
    expect((await quoteFor(h, tenant)).cached).toBe(false);
  });
});

/**
 * EVM code for a token whose transferFrom(from, to, value) moves nothing and returns nothing (which
 * the depositor takes for success), logging Transfer(from, to, value) only when `to` is `only`.
 */
function transferOnlyTo(only: Hex): Hex {
  const transferTopic = keccak256(toHex("Transfer(address,address,uint256)")).slice(2);
  return `0x${[
    "602435", // CALLDATALOAD(0x24): to
    `73${only.slice(2).toLowerCase()}`, // PUSH20 only
    "14", // EQ
    "601d57", // JUMPI to 0x1d
    "00", // STOP: another recipient, no log
    "5b", // JUMPDEST (0x1d)
    "604435600052", // MSTORE(0, CALLDATALOAD(0x44)): value
    "602435", // topic 2: to
    "600435", // topic 1: from
    `7f${transferTopic}`, // topic 0: Transfer
    "60206000a3", // LOG3(0, 32)
    "00", // STOP
  ].join("")}`;
}
