import { eq } from "drizzle-orm";
import {
  concat,
  createPublicClient,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  toHex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxWalletClient, type TradingLimitConfig } from "../../dev/chains";
import { route as confirmSwapRoute } from "../../functions/swaps/confirm-swap";
import { route as getSwap } from "../../functions/swaps/get-swap";
import { type PrepareSwapResponse, route as prepareSwapRoute } from "../../functions/swaps/prepare-swap";
import { erc20Abi, mentoBrokerAbi, mentoRouterAbi } from "../../lib/kernel/chain/abis";
import { ApiError } from "../../lib/kernel/errors/api-error";
import type { TokenSymbol } from "../../lib/kernel/money";
import { confirmSwap } from "../../lib/swaps/confirm-swap";
import { SWAP_AMOUNT_BOUNDS } from "../../lib/swaps/pairs";
import type { PartnerContext } from "../../lib/tenancy/caller";
import { swapIntents, webhookEvents } from "../../schema";
import { commitmentOf, SWAP_COMMITMENT_TAG } from "../../sdk/src/commitments";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import { quietContext } from "../harness/context";
import { freePort } from "../harness/free-port";
import {
  anyAddress,
  approve,
  confirmRequest,
  destinationOf,
  getSwapRequest,
  mentoOperator,
  mine,
  prepareRequest,
  prepareSwap,
  reader,
  rpc,
  sendFrom,
  sendPrepared,
  swapWallet,
  tokenAddress,
  unitsOf,
} from "../harness/swaps";
import { createTenant, type Tenant } from "../harness/tenants";

/** The destination chain needs three confirmations here, so that "under-confirmed" is reachable. */
const CONFIRMATIONS = 3;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ chains: true, confirmations: { destination: CONFIRMATIONS } });
}, 60_000);
afterAll(() => h.close());

/** Buries the latest block under enough blocks for the service to count it confirmed. */
const bury = () => mine(h, CONFIRMATIONS - 1);

const WALLET = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const randomHash = (): Hex => keccak256(toHex(`${Math.random()}-${Date.now()}`));

async function refused(response: Response, status: number, code: string) {
  const { status: actual, body } = await errorOf(response);
  expect(actual, JSON.stringify(body)).toBe(status);
  expect(body.error.code, JSON.stringify(body)).toBe(code);
  return body.error;
}

async function intentsOf(tenant: Tenant) {
  return h.database.db
    .select()
    .from(swapIntents)
    .where(eq(swapIntents.organizationId, tenant.organizationId));
}

interface Pair {
  tokenIn: TokenSymbol;
  tokenOut: TokenSymbol;
  /** Whole tokens swapped. */
  whole: string;
  slippageBps?: number;
}
const TWO_HOPS: Pair = { tokenIn: "USDC", tokenOut: "COPm", whole: "20" };
const ONE_HOP: Pair = { tokenIn: "USDm", tokenOut: "COPm", whole: "20" };

/** A wallet funded with `times` the swap's amount, and a swap prepared for it. */
async function walletWithSwap(tenant: Tenant, pair: Pair = TWO_HOPS, times = 1) {
  const amountIn = unitsOf(pair.tokenIn, pair.whole);
  const wallet = await swapWallet(h, { [pair.tokenIn]: (Number(pair.whole) * times).toString() });
  const prepared = await prepareSwap(h, tenant, {
    wallet: wallet.address,
    tokenIn: pair.tokenIn,
    tokenOut: pair.tokenOut,
    amountIn: amountIn.toString(),
    ...(pair.slippageBps === undefined ? {} : { slippageBps: pair.slippageBps }),
  });
  return { wallet, prepared, amountIn };
}

const confirm = (tenant: Tenant, intentId: string, txHash: string) =>
  confirmRequest(h, tenant, intentId, { txHash });

async function confirmed(tenant: Tenant, intentId: string, txHash: string) {
  return bodyOf(await confirm(tenant, intentId, txHash), confirmSwapRoute, 200);
}

async function stillPrepared(tenant: Tenant, intentId: string) {
  const swap = await bodyOf(await getSwapRequest(h, tenant, intentId), getSwap, 200);
  expect(swap).toMatchObject({ status: "prepared", txHash: null, amountOutReceived: null });
}

/** The swap's minimum as its calldata carries it (the router's amountOutMin, or the broker's). */
function calldataMinimum(prepared: PrepareSwapResponse): bigint {
  const data = prepared.transaction.calldata as Hex;
  if (prepared.quote.path.length === 1) {
    const { args } = decodeFunctionData({ abi: mentoBrokerAbi, data });
    return args[5] as bigint;
  }
  const { args } = decodeFunctionData({ abi: mentoRouterAbi, data });
  return args[1] as bigint;
}

describe("prepare refuses what it cannot swap", () => {
  const SYMBOLS: TokenSymbol[] = ["USDT", "USDC", "USDm", "COPm"];
  const SUPPORTED = ["USDT→COPm", "USDC→COPm", "USDm→COPm", "COPm→USDT"];

  it("answers UNSUPPORTED_PAIR for every pair but USDT|USDC|USDm → COPm and COPm → USDT, and for unknown symbols, recording nothing", async () => {
    const tenant = await createTenant(h);
    const body = (tokenIn: string, tokenOut: string, amountIn = "10000000") => ({
      wallet: WALLET,
      tokenIn,
      tokenOut,
      amountIn,
    });
    const unsupported = SYMBOLS.flatMap((a) => SYMBOLS.map((b) => [a, b] as const)).filter(
      ([a, b]) => !SUPPORTED.includes(`${a}→${b}`),
    );
    expect(unsupported).toHaveLength(12);
    for (const [tokenIn, tokenOut] of unsupported) {
      const error = await refused(
        await prepareRequest(h, tenant, body(tokenIn, tokenOut, unitsOf(tokenIn, "10").toString())),
        400,
        "UNSUPPORTED_PAIR",
      );
      expect(error.retryable, `${tokenIn}→${tokenOut}`).toBe(false);
    }
    for (const [tokenIn, tokenOut] of [
      ["BTC", "COPm"],
      ["USDC", "COP"],
      ["usdc", "COPm"],
      ["cUSD", "COPm"],
      ["USDC", "copm"],
      ["", "COPm"],
    ]) {
      const error = await refused(
        await prepareRequest(h, tenant, body(tokenIn as string, tokenOut as string)),
        400,
        "UNSUPPORTED_PAIR",
      );
      expect(
        error.problems?.map((p) => p.code),
        `${tokenIn}→${tokenOut}`,
      ).toContain("UNSUPPORTED_PAIR");
    }
    expect(await intentsOf(tenant)).toEqual([]);

    // The four supported pairs, same request shape, are prepared.
    for (const pair of SUPPORTED) {
      const [tokenIn, tokenOut] = pair.split("→") as [TokenSymbol, TokenSymbol];
      const response = await prepareRequest(
        h,
        tenant,
        body(tokenIn, tokenOut, unitsOf(tokenIn, tokenIn === "COPm" ? "40000" : "10").toString()),
      );
      expect(response.status, `${pair}: ${await response.clone().text()}`).toBe(201);
    }
    expect(await intentsOf(tenant)).toHaveLength(4);
  });

  it("answers INVALID_AMOUNT for zero, negative, non-integer, decimal and malformed amounts and outside each token's bounds, and accepts both bounds", async () => {
    const tenant = await createTenant(h);
    const attempt = (tokenIn: TokenSymbol, amountIn: string) =>
      prepareRequest(h, tenant, {
        wallet: WALLET,
        tokenIn,
        tokenOut: tokenIn === "COPm" ? "USDT" : "COPm",
        amountIn,
      });
    const malformed = [
      "0",
      "00",
      "-1",
      "-25000000",
      "1.5",
      "25.000000",
      "2.5e7",
      "abc",
      "",
      " 25000000",
      "0x10",
    ];
    for (const amountIn of [...malformed, `1${"0".repeat(70)}`]) {
      const error = await refused(await attempt("USDC", amountIn), 400, "INVALID_AMOUNT");
      expect(error.problems, JSON.stringify(amountIn)).toEqual([
        expect.objectContaining({ field: "body.amountIn", code: "INVALID_AMOUNT" }),
      ]);
    }
    for (const tokenIn of ["USDC", "USDT", "USDm", "COPm"] as const) {
      const min = unitsOf(tokenIn, SWAP_AMOUNT_BOUNDS[tokenIn].min);
      const max = unitsOf(tokenIn, SWAP_AMOUNT_BOUNDS[tokenIn].max);
      for (const amountIn of [min - 1n, max + 1n, 1n]) {
        const error = await refused(await attempt(tokenIn, amountIn.toString()), 400, "INVALID_AMOUNT");
        expect(error.problems?.[0]?.field, `${tokenIn} ${amountIn}`).toBe("body.amountIn");
      }
      for (const amountIn of [min, max]) {
        const prepared = await bodyOf(await attempt(tokenIn, amountIn.toString()), prepareSwapRoute, 201);
        expect(prepared.quote.amountIn, tokenIn).toBe(amountIn.toString());
      }
    }
    // Only the eight in-bounds requests were recorded.
    expect(await intentsOf(tenant)).toHaveLength(8);
  });

  it("answers INVALID_WALLET_ADDRESS for anything but an all-lower-case or EIP-55 address, and records the wallet checksummed", async () => {
    const tenant = await createTenant(h);
    const attempt = (wallet: unknown) =>
      prepareRequest(h, tenant, { wallet, tokenIn: "USDC", tokenOut: "COPm", amountIn: "10000000" });
    const badChecksum = WALLET.replace("b", "B"); // 0x8ba1 → 0x8Ba1: mixed case, not EIP-55
    expect(badChecksum).not.toBe(WALLET);
    const upper = `0x${WALLET.slice(2).toUpperCase()}`;
    expect(upper).not.toBe(getAddress(upper));
    for (const wallet of [
      badChecksum,
      upper,
      WALLET.slice(0, -1),
      `${WALLET}0`,
      WALLET.slice(2),
      `0x${"g".repeat(40)}`,
      "",
      "vitalik.eth",
    ]) {
      const error = await refused(await attempt(wallet), 400, "INVALID_WALLET_ADDRESS");
      expect(error.problems?.[0]?.field, wallet).toBe("body.wallet");
    }
    expect(await intentsOf(tenant)).toEqual([]);

    const lower = await bodyOf(await attempt(WALLET.toLowerCase()), prepareSwapRoute, 201);
    expect(lower.swap.wallet).toBe(WALLET);
    expect((await attempt(WALLET)).status).toBe(201);
  });

  it("answers INVALID_REQUEST for slippageBps above 300, negative or not an integer, and puts the minimum it allows in the calldata", async () => {
    const tenant = await createTenant(h);
    const attempt = (extra: Record<string, unknown>) =>
      prepareRequest(h, tenant, {
        wallet: WALLET,
        tokenIn: "USDC",
        tokenOut: "COPm",
        amountIn: "10000000",
        ...extra,
      });
    for (const slippageBps of [301, 10_000, -1, 1.5, "50", null]) {
      const error = await refused(await attempt({ slippageBps }), 400, "INVALID_REQUEST");
      expect(error.problems?.[0]?.field, String(slippageBps)).toBe("body.slippageBps");
    }
    const unknownField = await refused(await attempt({ deadline: 1 }), 400, "INVALID_REQUEST");
    expect(unknownField.problems?.[0]?.field).toBe("body.deadline");
    expect(await intentsOf(tenant)).toEqual([]);

    // Both bounds, on the router's two hops and the broker's one.
    for (const [slippageBps, extra] of [
      [0, {}],
      [300, {}],
      [0, { tokenIn: "USDm", amountIn: unitsOf("USDm", "10").toString() }],
      [300, { tokenIn: "USDm", amountIn: unitsOf("USDm", "10").toString() }],
    ] as const) {
      const prepared = await bodyOf(await attempt({ slippageBps, ...extra }), prepareSwapRoute, 201);
      const expected = BigInt(prepared.quote.expectedAmountOut);
      const minimum = (expected * BigInt(10_000 - slippageBps)) / 10_000n;
      expect(prepared.quote).toMatchObject({ slippageBps, minAmountOut: minimum.toString() });
      expect(calldataMinimum(prepared)).toBe(minimum);
    }
  });

  describe("Mento's capacity and routes", () => {
    const onlyL0 = (limit0: number): TradingLimitConfig => ({
      timestep0: 300,
      timestep1: 0,
      limit0,
      limit1: 0,
      limitGlobal: 0,
      flags: 1,
    });
    const body = (tokenIn: TokenSymbol, tokenOut: TokenSymbol, whole: string, wallet: string = WALLET) => ({
      wallet,
      tokenIn,
      tokenOut,
      amountIn: unitsOf(tokenIn, whole).toString(),
    });

    it("answers MENTO_CAPACITY_EXCEEDED (409, retryable) when a hop would break the broker's trading limit, counting the window's earlier trades", async () => {
      const tenant = await createTenant(h);
      const mento = mentoOperator(h);
      try {
        // At most 1,000 USDm into USDm/COPm per 5 minutes.
        await mento.setLimit("USDm/COPm", "USDm", onlyL0(1_000));
        const error = await refused(
          await prepareRequest(h, tenant, body("USDm", "COPm", "1500")),
          409,
          "MENTO_CAPACITY_EXCEEDED",
        );
        expect(error.retryable).toBe(true);
        // The second hop of USDC → USDm → COPm: 1,500 USDC → 1,496.25 USDm into USDm/COPm.
        await refused(
          await prepareRequest(h, tenant, body("USDC", "COPm", "1500")),
          409,
          "MENTO_CAPACITY_EXCEEDED",
        );
        expect(await intentsOf(tenant)).toEqual([]);

        // Within the limit it prepares; once 900 USDm traded, 200 more would break it.
        const { wallet, prepared } = await walletWithSwap(tenant, { ...ONE_HOP, whole: "900" });
        await sendPrepared(h, wallet, prepared);
        await refused(
          await prepareRequest(h, tenant, body("USDm", "COPm", "200")),
          409,
          "MENTO_CAPACITY_EXCEEDED",
        );
        // A new window (the chain's time moves with the clock) takes it again.
        h.clock.advance(301_000);
        await mine(h, 1);
        expect((await prepareRequest(h, tenant, body("USDm", "COPm", "200"))).status).toBe(201);
      } finally {
        await mento.restoreLimit("USDm/COPm", "USDm");
      }
      try {
        // The first hop: at most 100 USDm out of USDm/USDC per 5 minutes.
        await mento.setLimit("USDm/USDC", "USDm", onlyL0(100));
        await refused(
          await prepareRequest(h, tenant, body("USDC", "COPm", "200")),
          409,
          "MENTO_CAPACITY_EXCEEDED",
        );
        expect((await prepareRequest(h, tenant, body("USDC", "COPm", "90"))).status).toBe(201);
      } finally {
        await mento.restoreLimit("USDm/USDC", "USDm");
      }
      expect((await prepareRequest(h, tenant, body("USDm", "COPm", "1500"))).status).toBe(201);
    });

    it("answers ROUTE_UNAVAILABLE (409, retryable) when the broker has no exchange for a hop, or the exchange prices the trade at nothing", async () => {
      const tenant = await createTenant(h);
      const mento = mentoOperator(h);
      await mento.removeExchangeProvider();
      try {
        for (const [tokenIn, tokenOut] of [
          ["USDm", "COPm"],
          ["USDC", "COPm"],
          ["COPm", "USDT"],
        ] as const) {
          const error = await refused(
            await prepareRequest(h, tenant, body(tokenIn, tokenOut, tokenIn === "COPm" ? "40000" : "10")),
            409,
            "ROUTE_UNAVAILABLE",
          );
          expect(error.retryable).toBe(true);
        }
      } finally {
        await mento.restoreExchangeProvider();
      }
      expect((await prepareRequest(h, tenant, body("USDm", "COPm", "10"))).status).toBe(201);

      // A rate and spread at which 10 USDm buy 0 COPm: no liquidity for the trade.
      await mento.setPricing("USDm/COPm", 1n, 10n ** 18n - 1n);
      try {
        await refused(await prepareRequest(h, tenant, body("USDm", "COPm", "10")), 409, "ROUTE_UNAVAILABLE");
        await refused(await prepareRequest(h, tenant, body("USDT", "COPm", "10")), 409, "ROUTE_UNAVAILABLE");
      } finally {
        await mento.restorePricing("USDm/COPm");
      }
      expect(await intentsOf(tenant)).toHaveLength(1);
    });
  });
});

describe("confirm checks the transaction on the chain", () => {
  it("refuses the prepared calldata sent by another wallet (INVALID_SWAP), even though it swapped, then confirms the wallet's own", async () => {
    const tenant = await createTenant(h);
    const { wallet, prepared, amountIn } = await walletWithSwap(tenant);
    const other = await swapWallet(h, { USDC: "20" });
    await approve(h, other, tokenAddress(h, "USDC"), prepared.transaction.target, amountIn);
    const sent = await sendFrom(h, other, {
      to: prepared.transaction.target,
      data: prepared.transaction.calldata,
    });
    expect(sent.status).toBe("success");
    await bury();

    const error = await refused(await confirm(tenant, prepared.intentId, sent.hash), 400, "INVALID_SWAP");
    expect(error.message).toContain("it was not sent by the wallet");
    expect(error.retryable).toBe(false);
    await stillPrepared(tenant, prepared.intentId);

    const own = await sendPrepared(h, wallet, prepared);
    await bury();
    expect(await confirmed(tenant, prepared.intentId, own)).toMatchObject({
      status: "confirmed",
      txHash: own.toLowerCase(),
    });
  });

  it("refuses the prepared calldata sent by the wallet to another address (INVALID_SWAP)", async () => {
    const tenant = await createTenant(h);
    const { wallet, prepared } = await walletWithSwap(tenant);
    const sent = await sendFrom(h, wallet, { to: anyAddress(), data: prepared.transaction.calldata });
    expect(sent.status).toBe("success");
    await bury();
    const error = await refused(await confirm(tenant, prepared.intentId, sent.hash), 400, "INVALID_SWAP");
    expect(error.message).toContain("it was not sent to the prepared target");
    await stillPrepared(tenant, prepared.intentId);
  });

  it("refuses edited calldata that swapped (a lower amountOutMin, a smaller amount, both keeping the commitment; trailing bytes; no commitment) and then confirms the exact one", async () => {
    const tenant = await createTenant(h);
    const { wallet, prepared, amountIn } = await walletWithSwap(tenant, TWO_HOPS, 5);
    const { target, calldata } = prepared.transaction;
    await approve(h, wallet, tokenAddress(h, "USDC"), target, amountIn * 5n);
    const path = prepared.quote.path;
    const commitment = commitmentOf(SWAP_COMMITMENT_TAG, prepared.intentId);
    expect(calldata.toLowerCase().endsWith(commitment.slice(2))).toBe(true);
    const routerCall = (args: readonly [bigint, bigint]) =>
      encodeFunctionData({
        abi: mentoRouterAbi,
        functionName: "swapExactTokensForTokens",
        args: [args[0], args[1], path],
      });
    const notPrepared = "its calldata is not the prepared calldata";
    const noCommitment = "it does not carry this intent's commitment";
    const edits: Array<[string, Hex, string]> = [
      ["amountOutMin 0", concat([routerCall([amountIn, 0n]), commitment]), notPrepared],
      [
        "half the amount",
        concat([routerCall([amountIn / 2n, BigInt(prepared.quote.minAmountOut) / 2n]), commitment]),
        notPrepared,
      ],
      ["trailing bytes", concat([calldata, "0x00000001"]), noCommitment],
      [
        "the call without its commitment",
        routerCall([amountIn, BigInt(prepared.quote.minAmountOut)]),
        noCommitment,
      ],
    ];
    for (const [what, data, check] of edits) {
      expect(data.toLowerCase(), what).not.toBe(calldata.toLowerCase());
      const sent = await sendFrom(h, wallet, { to: target, data });
      expect(sent.status, what).toBe("success");
      await bury();
      const error = await refused(await confirm(tenant, prepared.intentId, sent.hash), 400, "INVALID_SWAP");
      expect(error.message, what).toContain(check);
    }
    await stillPrepared(tenant, prepared.intentId);

    const exact = await sendFrom(h, wallet, { to: target, data: calldata });
    expect(exact.status).toBe("success");
    await bury();
    expect(await confirmed(tenant, prepared.intentId, exact.hash)).toMatchObject({
      status: "confirmed",
      amountInSwapped: amountIn.toString(),
    });
  });

  it("refuses a reverted transaction (INVALID_SWAP): the prepared swap sent without its approval", async () => {
    const tenant = await createTenant(h);
    const { wallet, prepared } = await walletWithSwap(tenant);
    expect(prepared.approval).toBeDefined();
    const sent = await sendFrom(h, wallet, {
      to: prepared.transaction.target,
      data: prepared.transaction.calldata,
      gas: 1_000_000n,
    });
    expect(sent.status).toBe("reverted");
    await bury();
    const error = await refused(await confirm(tenant, prepared.intentId, sent.hash), 400, "INVALID_SWAP");
    expect(error.message).toContain("the transaction reverted");
    await stillPrepared(tenant, prepared.intentId);
  });

  for (const [name, pair, drop] of [
    ["one hop, the broker's swapIn, prepared with slippage 0", { ...ONE_HOP, slippageBps: 0 }, 1n],
    ["two hops, the router, 0.5% slippage, the COPm rate 1% lower", TWO_HOPS, 39n * 10n ** 18n],
  ] as const) {
    it(`when the price drops below the minimum between prepare and send, the chain reverts the swap and confirm refuses it (${name})`, async () => {
      const tenant = await createTenant(h);
      const { wallet, prepared, amountIn } = await walletWithSwap(tenant, pair, 2);
      const mento = mentoOperator(h);
      await approve(h, wallet, tokenAddress(h, pair.tokenIn), prepared.transaction.target, amountIn * 2n);
      // 3,900 COPm per USDm less `drop` (wei of the 18-decimal rate): every output drops.
      await mento.setPricing("USDm/COPm", 3_900n * 10n ** 18n - drop, 25n * 10n ** 14n);
      let sent: Awaited<ReturnType<typeof sendFrom>>;
      try {
        sent = await sendFrom(h, wallet, {
          to: prepared.transaction.target,
          data: prepared.transaction.calldata,
          gas: 1_000_000n,
        });
      } finally {
        await mento.restorePricing("USDm/COPm");
      }
      expect(sent.status, "the on-chain minimum protects the wallet").toBe("reverted");
      await bury();
      const error = await refused(await confirm(tenant, prepared.intentId, sent.hash), 400, "INVALID_SWAP");
      expect(error.message).toContain("the transaction reverted");
      await stillPrepared(tenant, prepared.intentId);

      // At the prepared price the same calldata goes through: the minimum was the only obstacle.
      const again = await sendFrom(h, wallet, {
        to: prepared.transaction.target,
        data: prepared.transaction.calldata,
      });
      expect(again.status).toBe("success");
      await bury();
      expect((await confirmed(tenant, prepared.intentId, again.hash)).amountOutReceived).toBe(
        prepared.quote.expectedAmountOut,
      );
    });
  }

  it("checks the logs, not the quote: refuses a swap whose Transfers show less than the recorded minAmountOut or another amountIn, and accepts exactly the minimum", async () => {
    // The router and broker revert below the calldata's minimum, so no successful transaction of
    // the prepared calldata pays less; the recorded intent is moved instead, to reach these checks.
    const tenant = await createTenant(h);
    const { wallet, prepared, amountIn } = await walletWithSwap(tenant);
    const hash = await sendPrepared(h, wallet, prepared);
    await bury();
    const received = BigInt(prepared.quote.expectedAmountOut);
    const where = eq(swapIntents.id, prepared.intentId);
    const recorded = { minAmountOut: BigInt(prepared.quote.minAmountOut), amountIn };
    const tamperings: Array<[Partial<typeof recorded>, string]> = [
      [{ minAmountOut: received + 1n }, "the wallet received less than minAmountOut"],
      [{ amountIn: amountIn + 1n }, "the wallet did not pay the prepared amountIn"],
      [{ amountIn: amountIn - 1n }, "the wallet did not pay the prepared amountIn"],
    ];
    for (const [set, check] of tamperings) {
      await h.database.db.update(swapIntents).set(set).where(where);
      const error = await refused(await confirm(tenant, prepared.intentId, hash), 400, "INVALID_SWAP");
      expect(
        error.message,
        JSON.stringify(set, (_, v) => (typeof v === "bigint" ? `${v}` : v)),
      ).toContain(check);
      await h.database.db.update(swapIntents).set(recorded).where(where);
      await stillPrepared(tenant, prepared.intentId);
    }
    // Exactly the minimum is enough.
    await h.database.db.update(swapIntents).set({ minAmountOut: received }).where(where);
    expect(await confirmed(tenant, prepared.intentId, hash)).toMatchObject({
      amountInSwapped: amountIn.toString(),
      amountOutReceived: received.toString(),
    });
  });

  it("records a hash once: TX_ALREADY_USED for another intent of the organization, another organization's answered as an unused transaction (issue 37, finding 1), the recorded swap again on the same intent", async () => {
    const tenant = await createTenant(h);
    const stranger = await createTenant(h, "Stranger");
    const first = await walletWithSwap(tenant);
    const second = await walletWithSwap(tenant);
    const foreign = await walletWithSwap(stranger);
    const hash = await sendPrepared(h, first.wallet, first.prepared);
    await bury();
    const swap = await confirmed(tenant, first.prepared.intentId, hash);

    for (const spelled of [hash, `0x${hash.slice(2).toUpperCase()}`]) {
      const error = await refused(
        await confirm(tenant, second.prepared.intentId, spelled),
        409,
        "TX_ALREADY_USED",
      );
      expect(error.retryable).toBe(false);
    }
    await stillPrepared(tenant, second.prepared.intentId);
    // Another organization cannot tell this organization's used transaction from one nobody used:
    // both fail verification alike (another wallet's, another intent's calldata).
    const unused = await walletWithSwap(tenant);
    const unusedHash = await sendPrepared(h, unused.wallet, unused.prepared);
    await bury();
    const onUsed = await refused(
      await confirm(stranger, foreign.prepared.intentId, hash),
      400,
      "INVALID_SWAP",
    );
    const onUnused = await refused(
      await confirm(stranger, foreign.prepared.intentId, unusedHash),
      400,
      "INVALID_SWAP",
    );
    expect(onUsed.message).toBe(onUnused.message);
    await stillPrepared(stranger, foreign.prepared.intentId);
    // Same intent, same hash (any case): the recorded swap, unchanged.
    expect(await confirmed(tenant, first.prepared.intentId, hash)).toEqual(swap);
    expect(await confirmed(tenant, first.prepared.intentId, `0x${hash.slice(2).toUpperCase()}`)).toEqual(
      swap,
    );

    // The second intent still confirms with its own transaction, whose hash is then taken too.
    const own = await sendPrepared(h, second.wallet, second.prepared);
    await bury();
    await confirmed(tenant, second.prepared.intentId, own);
    await refused(await confirm(tenant, first.prepared.intentId, own), 409, "TX_ALREADY_USED");
    // A confirmed intent takes no other transaction.
    const error = await refused(
      await confirm(tenant, first.prepared.intentId, randomHash()),
      400,
      "INVALID_SWAP",
    );
    expect(error.message).toContain("confirmed with another transaction");
    expect(
      (await bodyOf(await getSwapRequest(h, tenant, first.prepared.intentId), getSwap, 200)).txHash,
    ).toBe(hash.toLowerCase());
  });

  it("under racing confirms, records a hash once: its own intent wins against a look-alike (INVALID_SWAP or TX_ALREADY_USED); the same intent twice answers one swap and one event", async () => {
    const tenant = await createTenant(h);
    // Two intents alike (same wallet, same quote): only their commitments tell their calldata apart.
    const first = await walletWithSwap(tenant, TWO_HOPS, 2);
    const second = {
      wallet: first.wallet,
      prepared: await prepareSwap(h, tenant, {
        wallet: first.wallet.address,
        tokenIn: "USDC",
        tokenOut: "COPm",
        amountIn: first.amountIn.toString(),
      }),
    };
    const withoutCommitment = (calldata: Hex) => calldata.slice(0, -64);
    expect(withoutCommitment(second.prepared.transaction.calldata)).toBe(
      withoutCommitment(first.prepared.transaction.calldata),
    );
    const hash = await sendPrepared(h, first.wallet, first.prepared);
    await bury();
    const raced = await Promise.all([
      confirm(tenant, first.prepared.intentId, hash),
      confirm(tenant, second.prepared.intentId, hash),
    ]);
    expect(raced[0]?.status).toBe(200);
    const lost = await errorOf(raced[1] as Response);
    expect(["400 INVALID_SWAP", "409 TX_ALREADY_USED"]).toContain(`${lost.status} ${lost.body.error.code}`);
    await stillPrepared(tenant, second.prepared.intentId);

    // The look-alike confirms with a transaction of its own; two confirms of it at once answer alike.
    const own = await sendPrepared(h, second.wallet, second.prepared);
    await bury();
    const twice = await Promise.all([
      confirm(tenant, second.prepared.intentId, own),
      confirm(tenant, second.prepared.intentId, own),
    ]);
    expect(twice.map((response) => response.status)).toEqual([200, 200]);
    const [one, other] = await Promise.all(twice.map((response) => response.json()));
    expect(one).toEqual(other);
    for (const intentId of [first.prepared.intentId, second.prepared.intentId]) {
      const events = await h.database.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.subjectId, intentId));
      expect(events.map((event) => event.type)).toEqual(["swap.confirmed"]);
    }
  });

  it("answers SWAP_PENDING_CONFIRMATIONS (409, retryable, Retry-After), not INVALID_SWAP, for a hash the chain does not know yet", async () => {
    const tenant = await createTenant(h);
    const { prepared } = await walletWithSwap(tenant);
    const response = await confirm(tenant, prepared.intentId, randomHash());
    expect(response.headers.get("retry-after")).toBe("5");
    const error = await refused(response, 409, "SWAP_PENDING_CONFIRMATIONS");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("does not know this transaction yet");
    await stillPrepared(tenant, prepared.intentId);
  });

  it("answers SWAP_EXPIRED for a hash the chain does not know once the intent expired a minute ago: no block can take it in time", async () => {
    const tenant = await createTenant(h);
    const { prepared } = await walletWithSwap(tenant);
    const hash = randomHash();
    h.clock.advance(new Date(prepared.expiresAt).getTime() - h.clock.now().getTime() + 30_000);
    await refused(await confirm(tenant, prepared.intentId, hash), 409, "SWAP_PENDING_CONFIRMATIONS");
    h.clock.advance(30_000);
    const response = await confirm(tenant, prepared.intentId, hash);
    expect(response.headers.get("retry-after")).toBeNull();
    const error = await refused(response, 409, "SWAP_EXPIRED");
    expect(error.retryable).toBe(false);
    await stillPrepared(tenant, prepared.intentId);
  });

  it("keeps INVALID_SWAP, with no Retry-After, for a mined transaction that is not the intent's (the wallet's approval)", async () => {
    const tenant = await createTenant(h);
    const { wallet, prepared, amountIn } = await walletWithSwap(tenant);
    const approval = await sandboxWalletClient(destinationOf(h), wallet).writeContract({
      address: tokenAddress(h, "USDC"),
      abi: erc20Abi,
      functionName: "approve",
      args: [prepared.transaction.target, amountIn],
    });
    await reader(h).waitForTransactionReceipt({ hash: approval });
    await bury();
    const response = await confirm(tenant, prepared.intentId, approval);
    expect(response.headers.get("retry-after")).toBeNull();
    const error = await refused(response, 400, "INVALID_SWAP");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("it was not sent to the prepared target");
    await stillPrepared(tenant, prepared.intentId);
  });

  it("answers SWAP_PENDING_CONFIRMATIONS (409, retryable, Retry-After) for an unmined hash and until the third confirmation, then confirms", async () => {
    const tenant = await createTenant(h);
    const { wallet, prepared, amountIn } = await walletWithSwap(tenant);
    await approve(h, wallet, tokenAddress(h, "USDC"), prepared.transaction.target, amountIn);
    const pending = async (expected: string) => {
      const response = await confirm(tenant, prepared.intentId, hash);
      expect(response.headers.get("retry-after")).toBe("5");
      const error = await refused(response, 409, "SWAP_PENDING_CONFIRMATIONS");
      expect(error.retryable).toBe(true);
      expect(error.message).toContain(expected);
      await stillPrepared(tenant, prepared.intentId);
    };

    let hash: Hex;
    await rpc(h, "evm_setAutomine", [false]);
    try {
      hash = await sandboxWalletClient(destinationOf(h), wallet).sendTransaction({
        to: prepared.transaction.target,
        data: prepared.transaction.calldata,
        gas: 1_000_000n,
      });
      expect(await reader(h).getTransaction({ hash })).toMatchObject({ blockNumber: null });
      await pending("(0)");
    } finally {
      await rpc(h, "evm_setAutomine", [true]);
    }
    await mine(h, 1);
    await pending(`(1/${CONFIRMATIONS})`);
    await mine(h, 1);
    await pending(`(2/${CONFIRMATIONS})`);
    await mine(h, 1);
    expect(await confirmed(tenant, prepared.intentId, hash)).toMatchObject({ status: "confirmed" });
  });

  it("answers PROVIDER_UNAVAILABLE, not an internal error, when the chain does not answer, recording nothing, and confirms once it does", async () => {
    const tenant = await createTenant(h);
    const { wallet, prepared } = await walletWithSwap(tenant);
    const hash = await sendPrepared(h, wallet, prepared);
    await bury();
    // The service's own context, its destination chain's RPC pointing at a port nobody listens on.
    const base = quietContext(h);
    const destination = base.chains.byRole("destination");
    if (!destination) throw new Error("no destination chain");
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const ctx: PartnerContext = {
      ...base,
      chains: {
        ...base.chains,
        byRole: (role) =>
          role === "destination"
            ? {
                ...destination,
                client: createPublicClient({ transport: http(unreachable, { retryCount: 0 }) }),
              }
            : base.chains.byRole(role),
      },
      caller: {
        organizationId: tenant.organizationId,
        integrationId: tenant.integrationId,
        keyId: "key_unused",
        organization: {
          intakePaused: false,
          burnPlanEnabled: false,
          serviceFeeBps: 100,
          fastTransfer: false,
          settlementAccountActive: true,
          partnerFeeBps: 0,
          partnerFeeAddress: null,
          defaultSourceChainId: null,
          perUserDailyLimitUsd: null,
          perUserMonthlyLimitUsd: null,
          organizationDailyLimitUsd: null,
        },
      },
    };
    const failure = await confirmSwap(ctx, prepared.intentId, hash).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe("PROVIDER_UNAVAILABLE");
    await stillPrepared(tenant, prepared.intentId);
    expect(await confirmSwap({ ...ctx, chains: base.chains }, prepared.intentId, hash)).toMatchObject({
      status: "confirmed",
      txHash: hash.toLowerCase(),
    });
  });

  it("answers SWAP_NOT_FOUND for an intent that does not exist, on confirm and get", async () => {
    const tenant = await createTenant(h);
    for (const intentId of ["si_01KAZ6XQ4R8N2M5V7B9C1D3F5G", "nope"]) {
      await refused(await confirm(tenant, intentId, randomHash()), 404, "SWAP_NOT_FOUND");
      await refused(await getSwapRequest(h, tenant, intentId), 404, "SWAP_NOT_FOUND");
    }
  });

  it("answers INVALID_REQUEST for a txHash that is not 0x and 64 hex digits, or a body with other fields", async () => {
    const tenant = await createTenant(h);
    const { prepared } = await walletWithSwap(tenant);
    const good = randomHash();
    for (const txHash of [
      "0x1234",
      good.slice(2),
      `${good}0`,
      good.slice(0, -1),
      `0x${"g".repeat(64)}`,
      `${good} `,
      "",
      null,
      42,
    ]) {
      const error = await refused(
        await confirm(tenant, prepared.intentId, txHash as string),
        400,
        "INVALID_REQUEST",
      );
      expect(error.problems?.[0]?.field, String(txHash)).toBe("body.txHash");
    }
    await refused(await confirmRequest(h, tenant, prepared.intentId, {}), 400, "INVALID_REQUEST");
    const extra = await refused(
      await confirmRequest(h, tenant, prepared.intentId, { txHash: good, wallet: WALLET }),
      400,
      "INVALID_REQUEST",
    );
    expect(extra.problems?.[0]?.field).toBe("body.wallet");
    await stillPrepared(tenant, prepared.intentId);
  });
});

describe("an intent's expiry and its amount bounds (issue 20, findings 3 and 16)", () => {
  it("refuses a transaction mined after the intent's expiresAt with SWAP_EXPIRED and records nothing; one mined in time confirms even after expiry", async () => {
    const tenant = await createTenant(h);
    const late = await walletWithSwap(tenant);
    // Mined in the very second of expiresAt: not before it.
    h.clock.set(new Date(late.prepared.expiresAt));
    const lateHash = await sendPrepared(h, late.wallet, late.prepared);
    await bury();
    const error = await refused(await confirm(tenant, late.prepared.intentId, lateHash), 409, "SWAP_EXPIRED");
    expect(error.retryable).toBe(false);
    await stillPrepared(tenant, late.prepared.intentId);

    const inTime = await walletWithSwap(tenant);
    const hash = await sendPrepared(h, inTime.wallet, inTime.prepared);
    await bury();
    h.clock.set(new Date(new Date(inTime.prepared.expiresAt).getTime() + 60_000));
    expect(await confirmed(tenant, inTime.prepared.intentId, hash)).toMatchObject({ status: "confirmed" });
  });

  it("bounds each token's amountIn by its own value: COPm → USDT up to 400,000,000 COPm (about 100,000 US dollars), from 40 COPm", async () => {
    const tenant = await createTenant(h);
    const attempt = (amountIn: bigint) =>
      prepareRequest(h, tenant, {
        wallet: WALLET,
        tokenIn: "COPm",
        tokenOut: "USDT",
        amountIn: amountIn.toString(),
      });
    // 1,000,000 COPm is about 256 US dollars: above the old cap of 100,000 whole tokens.
    for (const amountIn of [unitsOf("COPm", "40"), unitsOf("COPm", "1000000")]) {
      const response = await attempt(amountIn);
      expect(response.status, `${amountIn}: ${await response.clone().text()}`).toBe(201);
    }
    // At the bound the amount passes; the exchange's own trading limit may still refuse it.
    // (A prepared swap is read with its route's schema, a refusal with the error schema.)
    const atMaximum = await attempt(unitsOf("COPm", "400000000"));
    const outcome =
      atMaximum.status === 201
        ? (await bodyOf(atMaximum, prepareSwapRoute, 201)).quote.amountIn
        : (await errorOf(atMaximum)).code;
    expect(outcome).not.toBe("INVALID_AMOUNT");
    for (const amountIn of [unitsOf("COPm", "40") - 1n, unitsOf("COPm", "400000000") + 1n]) {
      const error = await refused(await attempt(amountIn), 400, "INVALID_AMOUNT");
      expect(error.problems?.[0]?.problem).toBe("must be between 40 and 400,000,000 COPm");
    }
  });
});
