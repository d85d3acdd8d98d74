import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getAddress } from "viem";
import { brebPayouts, brebQuotes, organizations } from "../../schema";
import { assertWithinVolumeLimits } from "../compliance";
import { readKyc } from "../identity/kyc-records";
import { assertWalletSession, screenWallet } from "../identity/wallet-sessions";
import { createOnce } from "../kernel/db/create-once";
import { parseDecimalFraction } from "../kernel/decimal-fraction";
import { ApiError } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { mulDivUp } from "../kernel/money";
import { ProviderFailure } from "../kernel/provider-failure";
import type { PartnerContext } from "../tenancy/caller";
import { brebKeyType, sameOwnerName } from "./breb-key";
import type { BrebToken, PayoutServices } from "./breb-provider";
import { payoutRef, payoutSteps, signPayoutPlan } from "./payout-plan";
import { noteMove } from "./payout-records";
import { type PayoutRow, payoutView } from "./payout-view";
import { payoutProvider } from "./provider-rates";

/** Mock mode: a key starting with this never matches its owner (spec 1, mock mode). */
const MOCK_UNKNOWN_KEY_PREFIX = "0000";

/** How long the user has to send the deposit after the payout is created. */
const DEPOSIT_WINDOW_MS = 30 * 60_000;

export interface PayoutRequest {
  quoteId: string;
  userAddress: string;
  breBKey: string;
  accountOwnerName: string;
  idempotencyKey: string;
  /** The user's wallet session (Wallet-Session): proof that the caller acts with the wallet's consent. */
  walletSession?: string | undefined;
  /** SHA-256 of the request's fields: the same key with other fields is a conflict. */
  requestHash: string;
}

const payoutOfQuote = alias(brebPayouts, "payout_of_quote");

/**
 * Creates the payout for a quote, once, in this order, creating nothing unless every check passes:
 * the user's wallet session, the quote (the organization's, unexpired, unused), the user's KYC, the key's shape, the provider's
 * resolution of the key to the named owner (else `destination_mismatch`: the user must send
 * nothing). The answer carries the two steps the user signs, EIP-712-signed by the service. Same key
 * and same request replays the first answer byte for byte; the database's unique indexes (one payout
 * per quote, one per key in an organization) settle races.
 */
export async function createPayout(
  ctx: PartnerContext<PayoutServices>,
  request: PayoutRequest,
): Promise<string> {
  // The wallet first, before even a replay: an answer about this user goes only to the user's wallet.
  await assertWalletSession(ctx, request.walletSession, request.userAddress);
  await screenWallet(ctx, request.userAddress, "body.userAddress", "PAYOUT");
  const organizationId = ctx.caller.organizationId;
  const [found] = await ctx.db
    .select({ quote: brebQuotes, underKey: brebPayouts, ofQuote: payoutOfQuote })
    .from(organizations)
    .leftJoin(
      brebQuotes,
      and(eq(brebQuotes.id, request.quoteId), eq(brebQuotes.organizationId, organizations.id)),
    )
    .leftJoin(
      brebPayouts,
      and(
        eq(brebPayouts.organizationId, organizations.id),
        eq(brebPayouts.idempotencyKey, request.idempotencyKey),
      ),
    )
    .leftJoin(payoutOfQuote, eq(payoutOfQuote.quoteId, brebQuotes.id))
    .where(eq(organizations.id, organizationId));
  return createOnce({
    found,
    // The same request is the same body: the hash of its fields.
    sameRequest: (existing) => existing.requestHash === request.requestHash,
    answerOf: (existing) => existing.creationResponse,
    // A quote is good before its expiresAt, not at it.
    expired: (quote) => ctx.clock.now() >= quote.expiresAt,
    create: (quote) => insertPayout(ctx, request, quote),
    underKeyNow: async () => {
      const [underKey] = await ctx.db
        .select()
        .from(brebPayouts)
        .where(
          and(
            eq(brebPayouts.organizationId, ctx.caller.organizationId),
            eq(brebPayouts.idempotencyKey, request.idempotencyKey),
          ),
        );
      return underKey;
    },
  });
}

/**
 * Checks the user's KYC, the key and its owner with the provider, signs the deposit plan and
 * inserts the payout: its answer, or undefined if another insert won.
 */
async function insertPayout(
  ctx: PartnerContext<PayoutServices>,
  request: PayoutRequest,
  quote: typeof brebQuotes.$inferSelect,
): Promise<string | undefined> {
  const organizationId = ctx.caller.organizationId;
  const kyc = await readKyc(ctx, request.userAddress);
  if (kyc.status !== "approved") {
    throw new ApiError("KYC_REQUIRED", {
      detail: `(KYC status: ${kyc.status})`,
      extras: {
        ...(kyc.kycLink ? { kycLink: kyc.kycLink } : {}),
        ...(kyc.termsLink ? { termsLink: kyc.termsLink } : {}),
      },
    });
  }
  // Mock mode's magic key answers as the spec says whatever its length, so before the shape check.
  if (ctx.config.MODE === "mock" && request.breBKey.startsWith(MOCK_UNKNOWN_KEY_PREFIX)) {
    throw new ApiError("destination_mismatch");
  }
  const keyType = brebKeyType(request.breBKey);
  if (!keyType) throw new ApiError("INVALID_BREB_KEY");
  // Refused before the provider is asked anything: a payout this deployment cannot take.
  const setup = payoutSetup(ctx, quote.token as BrebToken);
  await assertDepositorDeployed(ctx, setup);
  await assertDestinationMatches(ctx, request);

  const token = quote.token as BrebToken;
  const depositAddress = getAddress(
    await askProvider(() => payoutProvider(ctx).depositAddress({ token, chainId: setup.chainId })),
  );

  const now = ctx.clock.now();
  const payoutId = newId("po", ctx.clock);
  const steps = payoutSteps({
    payoutId,
    chainId: setup.chainId,
    token: setup.tokenAddress,
    depositor: setup.depositor,
    providerAmount: quote.providerAmount,
    serviceFee: quote.serviceFee,
    depositAddress,
    feeWallet: setup.feeWallet,
    partnerFee: quote.partnerFee,
    partnerFeeAddress: quote.partnerFeeAddress as `0x${string}` | null,
  });
  const plan = await signPayoutPlan(setup.signer, {
    payoutId,
    quoteId: quote.id,
    depositor: request.userAddress as `0x${string}`,
    chainId: setup.chainId,
    steps,
  });
  const payout: PayoutRow = {
    id: payoutId,
    organizationId,
    integrationId: ctx.caller.integrationId,
    quoteId: quote.id,
    idempotencyKey: request.idempotencyKey,
    requestHash: request.requestHash,
    creationResponse: "",
    userAddress: request.userAddress,
    usdValue: usdValueOf(quote),
    breBKey: request.breBKey,
    breBKeyType: keyType,
    accountOwnerName: request.accountOwnerName,
    token,
    chainId: setup.chainId,
    tokenAddress: setup.tokenAddress,
    destinationCop: quote.destinationCop,
    providerAmount: quote.providerAmount,
    serviceFee: quote.serviceFee,
    partnerFee: quote.partnerFee,
    partnerFeeAddress: quote.partnerFeeAddress,
    sourceAmount: quote.sourceAmount,
    depositAddress,
    feeWallet: setup.feeWallet,
    depositor: setup.depositor,
    payoutRef: payoutRef(payoutId),
    status: "awaiting_deposit",
    depositDeadline: new Date(now.getTime() + DEPOSIT_WINDOW_MS),
    depositTxHash: null,
    depositLogIndex: null,
    providerPayoutId: null,
    brebTransactionId: null,
    refundTxHash: null,
    refundLogIndex: null,
    refundAmount: null,
    feeReturnTxHash: null,
    failureReason: null,
    providerUpdatedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const deposit = {
    chainId: setup.chainId,
    chain: setup.chainName,
    token,
    tokenAddress: setup.tokenAddress,
    amount: payoutView(payout, []).sourceAmount,
    providerAmount: payoutView(payout, []).providerAmount,
    serviceFee: payoutView(payout, []).serviceFee,
    partnerFee: payoutView(payout, []).partnerFee,
    partnerFeeAddress: quote.partnerFeeAddress,
    depositAddress,
    feeWallet: setup.feeWallet,
    depositor: setup.depositor,
    payoutRef: payout.payoutRef,
    steps: plan.steps,
    signature: plan.signature,
    signer: plan.signer,
    eip712: plan.eip712,
  };

  const created = await ctx.db.transaction(async (tx) => {
    // Under the volume locks, in the transaction that records it: two payouts cannot both slip under a limit.
    await assertWithinVolumeLimits(ctx, tx, {
      organizationId,
      userAddress: request.userAddress,
      amountUsd: payout.usdValue,
      limits: ctx.caller.organization,
      lock: true,
      stage: "PAYOUT",
    });
    const [inserted] = await tx.insert(brebPayouts).values(payout).onConflictDoNothing().returning();
    if (!inserted) return undefined;
    await noteMove(ctx, tx, inserted, { status: "awaiting_deposit" });
    const creation = JSON.stringify({ payout: payoutView(inserted, []), deposit });
    await tx.update(brebPayouts).set({ creationResponse: creation }).where(eq(brebPayouts.id, inserted.id));
    return creation;
  });
  return created;
}

/**
 * The provider must resolve the key to the named owner (docs/payouts.md: the name rule). Mock mode also
 * holds the spec's magic owner name itself: one containing "mismatch" never matches (the magic key
 * is answered before the shape check).
 */
async function assertDestinationMatches(
  ctx: PartnerContext<PayoutServices>,
  request: Pick<PayoutRequest, "breBKey" | "accountOwnerName">,
): Promise<void> {
  const magic = ctx.config.MODE === "mock" && /mismatch/i.test(request.accountOwnerName);
  const resolved = magic
    ? undefined
    : await askProvider(() =>
        payoutProvider(ctx).resolveKey({
          breBKey: request.breBKey,
          accountOwnerName: request.accountOwnerName,
        }),
      );
  if (
    !resolved?.found ||
    !resolved.holderName ||
    !sameOwnerName(resolved.holderName, request.accountOwnerName)
  ) {
    throw new ApiError("destination_mismatch");
  }
}

interface PayoutSetup {
  chainId: number;
  chainName: string;
  tokenAddress: `0x${string}`;
  depositor: `0x${string}`;
  feeWallet: `0x${string}`;
  signer: NonNullable<PayoutServices["settlement"]["burnPlanSigner"]>;
}

/** Where payouts happen: the destination chain, its token and depositor, the fee wallet, the signer. */
export function payoutSetup(ctx: PayoutServices, token: BrebToken): PayoutSetup {
  const chain = ctx.chains.byRole("destination");
  const tokenAddress = token === "USDC" ? chain?.contracts.usdc : chain?.contracts.copm;
  const depositor = chain?.contracts.payoutDepositor;
  const feeWallet = ctx.config.BREB_FEE_WALLET ? getAddress(ctx.config.BREB_FEE_WALLET) : undefined;
  const signer = ctx.settlement.burnPlanSigner;
  if (!chain || !tokenAddress || !depositor || !feeWallet || !signer) {
    throw new ApiError("PAYOUTS_UNCONFIGURED");
  }
  return { chainId: chain.chainId, chainName: chain.name, tokenAddress, depositor, feeWallet, signer };
}

/** Depositors whose code was seen: a contract's code does not go away, so each is read once per isolate. */
const deployedDepositors = new Set<string>();

/**
 * A plan never sends a user's money to a depositor address with no code (the profile names where
 * PayoutDepositor is deployed through the deterministic deployment proxy; until someone deploys it
 * there, a call to it would do nothing and the deposit would never confirm).
 */
async function assertDepositorDeployed(ctx: PayoutServices, setup: PayoutSetup): Promise<void> {
  const key = `${setup.chainId}:${setup.depositor.toLowerCase()}`;
  if (deployedDepositors.has(key)) return;
  const client = ctx.chains.byRole("destination")?.client;
  const code = await client?.getCode({ address: setup.depositor }).catch(() => {
    throw new ApiError("PROVIDER_UNAVAILABLE");
  });
  if (!code || code === "0x") throw new ApiError("PAYOUTS_UNCONFIGURED");
  deployedDepositors.add(key);
}

async function askProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderFailure) {
      throw new ApiError("PROVIDER_UNAVAILABLE", { detail: "(the payout provider did not answer)" });
    }
    throw error;
  }
}

/**
 * What a payout is worth in US dollars, in USDC atomic units: its pesos at the quote's COP per USD,
 * rounded up (what the volume limits count).
 */
function usdValueOf(quote: { destinationCop: bigint; copPerUsd: string }): bigint {
  const copPerUsd = parseDecimalFraction(quote.copPerUsd);
  if (!copPerUsd) throw new Error(`stored rate ${quote.copPerUsd} does not parse`);
  return mulDivUp(quote.destinationCop * 10n ** 6n, copPerUsd.denominator, copPerUsd.numerator);
}
