import { and, eq, gt, isNull } from "drizzle-orm";
import { BaseError, type Hex, HttpRequestError, isErc6492Signature, TimeoutError } from "viem";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { walletSessions } from "../../schema";
import { screenAddresses } from "../compliance";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { ServiceContext } from "../kernel/context";
import { ApiError, type Problem } from "../kernel/errors/api-error";
import { newId } from "../kernel/ids";
import { describeError } from "../kernel/log";
import { randomToken, tokenHash } from "../kernel/secret-token";
import { isAnonymous, type PartnerContext } from "../tenancy/caller";

/** How long a challenge may wait for its signature, and how long the session it opens lasts. */
const WALLET_CHALLENGE_TTL_MS = 10 * 60_000;
export const WALLET_SESSION_TTL_MS = 60 * 60_000;
/** What a session token starts with, so a scanner can tell it from noise. */
const WALLET_SESSION_PREFIX = "wsess_";

const STATEMENT =
  "Sign in to COPm peso payouts (BRE-B): this proves you control this wallet. It moves no funds and costs nothing. / Inicia sesión en los pagos en pesos de COPm: esto prueba que controlas esta billetera; no mueve fondos ni cuesta nada.";

export interface WalletChallenge {
  challengeId: string;
  /** The EIP-4361 message the wallet signs, exactly as given (personal_sign / signMessage). */
  message: string;
  expiresAt: string;
}

export interface WalletSession {
  walletSession: string;
  userAddress: string;
  expiresAt: string;
}

/**
 * Issues a Sign-In with Ethereum (EIP-4361) message for `userAddress`: this service's domain and
 * URI (or, with a partner's key, its app's own, which its wallet shows the person), the payout
 * chain's id, a fresh nonce, ten minutes to sign it. Asking again issues another; each is good once.
 */
export async function issueWalletChallenge(
  ctx: PartnerContext,
  input: { userAddress: string; domain?: string | undefined; uri?: string | undefined },
): Promise<WalletChallenge> {
  const chain = walletChain(ctx);
  const service = new URL(ctx.config.PUBLIC_URL);
  const anonymous = isAnonymous(ctx.caller);
  if (anonymous) assertServiceOwn(service, input);
  const named: { domain?: string | undefined; uri?: string | undefined } = anonymous ? {} : input;
  const now = ctx.clock.now();
  const id = newId("ws", ctx.clock);
  const expiresAt = new Date(now.getTime() + WALLET_CHALLENGE_TTL_MS);
  const nonce = generateSiweNonce();
  const message = createSiweMessage({
    domain: named.domain ?? service.host,
    address: input.userAddress as Hex,
    statement: STATEMENT,
    uri: named.uri ?? service.origin,
    version: "1",
    chainId: chain.chainId,
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
    requestId: id,
  });
  await ctx.db.insert(walletSessions).values({
    id,
    organizationId: ctx.caller.organizationId,
    integrationId: ctx.caller.integrationId,
    userAddress: input.userAddress,
    nonce,
    message,
    createdAt: now,
    challengeExpiresAt: expiresAt,
  });
  return { challengeId: id, message, expiresAt: expiresAt.toISOString() };
}

/**
 * Without a key anyone may ask, a phishing page too: a message naming the caller's own domain would
 * show the person that page's name in the wallet's prompt, signed off by this service. There the
 * message names this service only; a different value is refused, naming the field, rather than
 * replaced, so a caller is never surprised by the message it gets.
 */
function assertServiceOwn(service: URL, input: { domain?: string | undefined; uri?: string | undefined }) {
  const problems: Problem[] = [];
  if (input.domain !== undefined && input.domain.toLowerCase() !== service.host) {
    problems.push({
      field: "body.domain",
      code: "INVALID_REQUEST",
      problem: `must be ${service.host} (this service's) or left out: without an API key the message names this service only`,
    });
  }
  if (input.uri !== undefined && !sameUrl(input.uri, service.origin)) {
    problems.push({
      field: "body.uri",
      code: "INVALID_REQUEST",
      problem: `must be ${service.origin} (this service's) or left out: without an API key the message names this service only`,
    });
  }
  if (problems.length > 0) throw new ApiError("INVALID_REQUEST", { problems });
}

function sameUrl(value: string, expected: string): boolean {
  try {
    return new URL(value).href === new URL(expected).href;
  } catch {
    return false;
  }
}

/**
 * Opens a wallet session from a challenge's message and the wallet's signature over it: the message
 * must be one this integration was issued, unexpired and unused, and the signature must be the
 * address's, checked on the payout chain's public client (viem's verifyMessage), so a smart-contract
 * wallet (ERC-1271, or ERC-6492 before it is deployed) signs in as an externally owned account does.
 * The token is answered once; only its hash is kept.
 */
export async function openWalletSession(
  ctx: PartnerContext,
  input: { message: string; signature: Hex },
): Promise<WalletSession> {
  const requestId = /^Request ID: (ws_[0-9A-Z]{26})$/m.exec(input.message)?.[1];
  const [challenge] = requestId
    ? await ctx.db
        .select()
        .from(walletSessions)
        .where(
          and(eq(walletSessions.id, requestId), eq(walletSessions.integrationId, ctx.caller.integrationId)),
        )
    : [];
  if (!challenge || challenge.message !== input.message) {
    throw new ApiError("INVALID_WALLET_SIGNATURE", {
      detail: "(the message is not one this service issued to this integration, as issued)",
    });
  }
  const now = ctx.clock.now();
  if (challenge.tokenHash !== null || now >= challenge.challengeExpiresAt) {
    throw new ApiError("WALLET_CHALLENGE_EXPIRED");
  }
  const chain = walletChain(ctx);
  const signed = await signedBy(ctx, chain, challenge.userAddress as Hex, input).catch((error: unknown) => {
    if (!unreachable(error)) return false;
    ctx.log.warn("wallet signature could not be checked on the chain", describeError(error));
    throw new ApiError("PROVIDER_UNAVAILABLE", { detail: `(${chain.name} did not answer)` });
  });
  if (!signed) {
    // A wrong signature spends the message: each challenge gets one try, so none is a guessing ground.
    await ctx.db
      .update(walletSessions)
      .set({ challengeExpiresAt: now })
      .where(and(eq(walletSessions.id, challenge.id), isNull(walletSessions.tokenHash)));
    throw new ApiError("INVALID_WALLET_SIGNATURE", {
      detail: "(the signature is not the address's over this message; ask for a new message)",
    });
  }
  // A listed wallet never signs in: no session, no code, no payout.
  await screenWallet(ctx, challenge.userAddress, "body.message", "WALLET_SIGN_IN");
  const token = `${WALLET_SESSION_PREFIX}${randomToken()}`;
  const expiresAt = new Date(now.getTime() + WALLET_SESSION_TTL_MS);
  const [opened] = await ctx.db
    .update(walletSessions)
    .set({ tokenHash: tokenHash(token), signedInAt: now, expiresAt })
    .where(and(eq(walletSessions.id, challenge.id), isNull(walletSessions.tokenHash)))
    .returning({ id: walletSessions.id });
  // Two signatures racing for one challenge: the first opened it.
  if (!opened) throw new ApiError("WALLET_CHALLENGE_EXPIRED");
  return { walletSession: token, userAddress: challenge.userAddress, expiresAt: expiresAt.toISOString() };
}

/**
 * Whether `signature` is the address's over `message`, checked on the chain (viem's verifyMessage):
 * an externally owned account's ECDSA signature, a deployed contract wallet's ERC-1271 answer, or an
 * ERC-6492 signature of a wallet not deployed yet. A 6492 wrapper for an address that already has
 * code is refused: its factory call would run before the check and could shape the state it reads.
 */
async function signedBy(
  ctx: ServiceContext,
  chain: ConfiguredChain,
  address: Hex,
  input: { message: string; signature: Hex },
): Promise<boolean> {
  if (isErc6492Signature(input.signature)) {
    const code = await chain.client.getCode({ address });
    if (code !== undefined && code !== "0x") {
      ctx.log.info("an ERC-6492 signature for a wallet that already has code was refused", { address });
      return false;
    }
  }
  return chain.client.verifyMessage({ address, message: input.message, signature: input.signature });
}

/** Whether the chain could not be asked (as opposed to a signature it could not make sense of). */
function unreachable(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError) !== null
  );
}

/**
 * WALLET_SESSION_REQUIRED unless `token` is a live session of the caller integration for exactly
 * `userAddress`: no one reads or changes a wallet's KYC, or pays out from it, without the wallet.
 */
export async function assertWalletSession(
  ctx: PartnerContext,
  token: string | undefined,
  userAddress: string,
): Promise<void> {
  if (token?.startsWith(WALLET_SESSION_PREFIX)) {
    const [session] = await ctx.db
      .select({ id: walletSessions.id })
      .from(walletSessions)
      .where(
        and(
          eq(walletSessions.tokenHash, tokenHash(token)),
          eq(walletSessions.integrationId, ctx.caller.integrationId),
          eq(walletSessions.userAddress, userAddress),
          gt(walletSessions.expiresAt, ctx.clock.now()),
        ),
      );
    if (session) return;
  }
  throw new ApiError("WALLET_SESSION_REQUIRED", {
    detail: "(the Wallet-Session header is missing, expired, or another wallet's or integration's)",
  });
}

/**
 * On the key-less miniapp prefix, where anyone may call, a user's records are read only with the
 * user's wallet session; a partner's key reads its own integration's records as they are.
 */
export async function assertWalletIfAnonymous(
  ctx: PartnerContext,
  token: string | undefined,
  userAddress: string | undefined,
): Promise<void> {
  if (!isAnonymous(ctx.caller)) return;
  if (userAddress === undefined) {
    throw new ApiError("WALLET_SESSION_REQUIRED", {
      detail: "(without a key, name the userAddress whose session you hold)",
    });
  }
  await assertWalletSession(ctx, token, userAddress);
}

/**
 * Whether an EIP-4361 message (as viem writes one) takes this domain and URI: the one judge of both,
 * so a request is refused with its field named instead of failing when the message is made.
 */
export function isSiweField(field: "domain" | "uri", value: string): boolean {
  try {
    createSiweMessage({
      domain: field === "domain" ? value : "example.com",
      uri: field === "uri" ? value : "https://example.com",
      address: "0x0000000000000000000000000000000000000001",
      chainId: 1,
      nonce: "abcdefgh12345678",
      version: "1",
    });
    return true;
  } catch {
    return false;
  }
}

/** The user's wallet, screened on the payout chain (docs/compliance.md): 403 SANCTIONED_ADDRESS when listed. */
export function screenWallet(
  ctx: ServiceContext,
  address: string,
  field: string,
  stage: string,
): Promise<void> {
  return screenAddresses(ctx, [{ address: address as `0x${string}`, field }], [walletChain(ctx)], stage);
}

/** The payout chain, where the person's wallet lives: its public client verifies the signature. */
function walletChain(ctx: ServiceContext): ConfiguredChain {
  const chain = ctx.chains.byRole("destination");
  if (!chain) throw new ApiError("PAYOUTS_UNCONFIGURED");
  return chain;
}
