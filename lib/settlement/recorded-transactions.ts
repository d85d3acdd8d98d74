import { and, asc, eq, inArray, notInArray } from "drizzle-orm";
import {
  type Account,
  BaseError,
  ExecutionRevertedError,
  encodeFunctionData,
  type Hex,
  keccak256,
} from "viem";
import {
  type RecordedRequest,
  settlementAccountLocks,
  settlementTransactions,
  UNMINED_TRANSACTION_STATUSES,
} from "../../schema";
import { erc20Abi } from "../kernel/chain/abis";
import { receiptOrUndefined } from "../kernel/chain/receipt";
import type { ConfiguredChain } from "../kernel/chain/registry";
import type { ServiceContext } from "../kernel/context";
import type { Database } from "../kernel/db/database";
import { isUniqueViolation } from "../kernel/db/errors";
import { newId } from "../kernel/ids";
import { noteOnTimeline } from "./progress-state";

export type TransactionOutcome =
  | { state: "success" | "reverted"; hash: Hex; purpose: string }
  | { state: "pending"; reason: string }
  /** The chain says the transaction would revert now (its estimate fails): nothing was signed. */
  | { state: "refused"; purpose: string; reason: string };

/** Where a test may stop a job dead, to prove that a retry neither loses nor repeats a payment. */
export type FaultPoint = "after-record" | "after-broadcast" | "after-confirm";
export interface FaultInjector {
  at(point: FaultPoint, purpose: string): void;
}

type Context = ServiceContext & { faults?: FaultInjector };
type Row = typeof settlementTransactions.$inferSelect;

/** The purpose of the settlement account's own approvals: they belong to the account, not an order. */
export const ALLOWANCE_PURPOSE = "allowance";

/** A transaction the chain would revert now: not signed, so nothing is spent on it. */
class WouldRevert extends Error {
  constructor(
    readonly purpose: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** Versions that will never be mined: dropped (nonce taken), orphaned (their chain was reset). */
const SETTLED_ASIDE = new Set(["dropped", "orphaned"]);

/** About what a storage write from zero costs over one from non-zero (cold: 22,100 gas against 5,000). */
const UNSEEN_STATE_GAS = 20_000n;

/** Nodes take a replacement at the same nonce only with both fees at least 10% higher. */
const REPLACEMENT_BUMP_PERMILLE = 1125n;

/** What a payment sends, decided only when it is to be signed (never again once recorded). */
export interface PaymentRequest {
  to: Hex;
  data: Hex;
  value?: bigint;
  /** What the payment spends through an ERC-20 allowance of the settlement account, if anything. */
  allowance?: { token: Hex; spender: Hex; amount: bigint };
  /**
   * Payments naming the same key are never in flight together, so each is priced on the state the
   * one before left (a Mento pool: its trading limits move with every swap).
   */
  serialWith?: string;
  /**
   * When the calldata stops being good (an aggregator's quote expires): past it the request is not
   * signed but priced again, and a version still unmined is cancelled rather than re-signed as is.
   */
  validUntil?: Date;
}

export interface Payment {
  orderId: string;
  purpose: string;
  chain: ConfiguredChain;
  account: Account;
  /**
   * Builds the request (pricing it afresh if need be), or says why it must not be sent now: `refused`
   * when the operator should look, `notYet` when the order waits for the market as it should (the
   * caller has said why on its timeline). Called only while the payment has no live recorded version:
   * a recorded payment is watched, not priced.
   */
  prepare(): Promise<PaymentRequest | { refused: string } | { notYet: string }>;
  /**
   * Checked under the account's lock just before signing, in the same transaction that records the
   * payment: true when the order no longer wants it (an operator redirected the order meanwhile).
   * Nothing is signed then, and the outcome is pending: the order's next look takes the new way.
   */
  withdrawn?(tx: Database): Promise<boolean>;
}

/**
 * Makes one of an order's payments at most once. The account's transactions on a chain are signed
 * one after another under a database lock on the account, each at the nonce after the last one
 * recorded, and broadcast without waiting for the earlier ones to be mined: up to
 * SETTLEMENT_MAX_IN_FLIGHT unmined at once. A payment whose estimate fails while earlier ones are
 * not mined waits for them rather than being refused; a payment that spends an allowance counts what
 * the unmined ones will spend of it, and a short allowance is topped up behind them; payments naming
 * one `serialWith` key (a Mento pool) go one at a time (docs/adr/0002-settlement-account-queue.md).
 * Every signed transaction is recorded before it is broadcast; whoever comes later finds the record
 * and watches it (rebroadcasting, replacing with higher fees past SETTLEMENT_REPLACE_AFTER_SECONDS,
 * or re-signing once its nonce provably went to another transaction) instead of paying again. A
 * payment counts as made only with the chain's configured confirmations.
 */
export async function sendOnce(ctx: Context, payment: Payment): Promise<TransactionOutcome> {
  const live = await liveVersions(ctx.db, payment.orderId, payment.purpose);
  if (live.length > 0) return watch(ctx, payment.chain, payment.account, live);
  if ((await watchAccountQueue(ctx, payment.chain, payment.account)) >= maxInFlight(ctx)) return QUEUED;
  const request = await payment.prepare();
  if ("refused" in request) return { state: "refused", purpose: payment.purpose, reason: request.refused };
  if ("notYet" in request) return { state: "pending", reason: request.notYet };
  return signAndSend(ctx, payment, request);
}

const QUEUED: TransactionOutcome = {
  state: "pending",
  reason: "queued behind the account's earlier transactions",
};

async function signAndSend(
  ctx: Context,
  payment: Payment,
  request: PaymentRequest,
  mayTopUp = true,
): Promise<TransactionOutcome> {
  const chosen = await withAccountLock(ctx, payment.chain, payment.account, async (tx) => {
    const recorded = await liveVersions(tx, payment.orderId, payment.purpose);
    if (recorded.length > 0) return { kind: "recorded" as const, rows: recorded };
    const queue = new InFlight(payment.chain, await unminedRows(tx, payment.chain, payment.account));
    if (queue.nonces >= maxInFlight(ctx)) return { kind: "queued" as const };
    if (await payment.withdrawn?.(tx)) return { kind: "queued" as const };
    if (request.serialWith && (await queue.holds(request.serialWith))) return { kind: "queued" as const };
    try {
      if (request.allowance) {
        const { token, spender, amount } = request.allowance;
        // The allowance and what is in flight, both as of one block: a spend mined between two
        // reads of the latest state would be counted twice (in the allowance and as unmined) and
        // top the allowance up for nothing.
        const block = await payment.chain.client.getBlockNumber();
        const [current, spending] = await Promise.all([
          payment.chain.client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: "allowance",
            args: [payment.account.address, spender],
            blockNumber: block,
          }),
          queue.spending(token, spender, block),
        ]);
        if (spending === undefined) return { kind: "queued" as const };
        if (current < spending + amount) {
          // The spends in flight have lower nonces, so they run before the top-up replaces the
          // allowance outright: it may be signed behind them. One top-up in flight per allowance, and
          // once per payment, so a short approval never loops.
          const topUp = `allowance:${token.toLowerCase()}:${spender.toLowerCase()}`;
          // As of the same block: a top-up mined after it is still in flight for this allowance read.
          if (!mayTopUp || (await queue.holds(topUp, block))) return { kind: "queued" as const };
          const standing = amount * BigInt(ctx.config.SETTLEMENT_ALLOWANCE_PAYMENTS);
          const row = await signAndRecord(ctx, tx, payment.chain, payment.account, queue, {
            orderId: null,
            purpose: ALLOWANCE_PURPOSE,
            to: token,
            data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, standing] }),
            value: 0n,
            serialWith: topUp,
          });
          return { kind: "allowance" as const, rows: [row] };
        }
      }
      // Priced long enough ago (waiting behind an allowance top-up) that its calldata went stale.
      if (request.validUntil && ctx.clock.now() > request.validUntil) return { kind: "stale" as const };
      const row = await signAndRecord(ctx, tx, payment.chain, payment.account, queue, {
        orderId: payment.orderId,
        purpose: payment.purpose,
        to: request.to,
        data: request.data,
        value: request.value ?? 0n,
        ...(request.allowance ? { allowance: request.allowance } : {}),
        ...(request.serialWith ? { serialWith: request.serialWith } : {}),
        ...(request.validUntil ? { validUntil: request.validUntil.toISOString() } : {}),
      });
      return { kind: "signed" as const, rows: [row] };
    } catch (error) {
      // The estimate ran on the chain's latest state: a transaction of the account not mined yet
      // may still change it (an approval the payment spends), so the payment waits for those; with
      // none, the chain refuses it as it is. The order's leg deadline bounds the wait.
      if (error instanceof WouldRevert && (await queue.anyUnmined())) return { kind: "queued" as const };
      throw error;
    }
  }).catch((error: unknown) => {
    // The database refuses a second live version of a payment or a nonce: another job got there first.
    if (isUniqueViolation(error)) return { kind: "queued" as const };
    if (error instanceof WouldRevert) return { kind: "refused" as const, error };
    throw error;
  });

  switch (chosen.kind) {
    case "refused":
      return { state: "refused", purpose: chosen.error.purpose, reason: chosen.error.message };
    case "queued":
      return QUEUED;
    case "stale":
      return { state: "pending", reason: "its quote expired before it was signed; it is priced again" };
    case "recorded":
      return watch(ctx, payment.chain, payment.account, chosen.rows);
    case "allowance": {
      ctx.faults?.at("after-record", ALLOWANCE_PURPOSE);
      const approval = await watch(ctx, payment.chain, payment.account, chosen.rows);
      if (approval.state !== "success") return approval;
      ctx.faults?.at("after-confirm", ALLOWANCE_PURPOSE);
      // The allowance stands now: the payment itself is next in the account's queue.
      return signAndSend(ctx, payment, request, false);
    }
    case "signed": {
      ctx.faults?.at("after-record", payment.purpose);
      return watch(ctx, payment.chain, payment.account, chosen.rows);
    }
  }
}

/**
 * Watches the account's oldest unmined transaction on the chain (rebroadcasting, replacing or
 * dropping as `watch` does), the one every later nonce waits on, and answers how many nonces are
 * still in flight. Any job does this for any order, so one order's crashed job never holds up the
 * others.
 */
async function watchAccountQueue(ctx: Context, chain: ConfiguredChain, account: Account): Promise<number> {
  const queue = new InFlight(chain, await unminedRows(ctx.db, chain, account));
  const oldest = queue.oldest();
  if (!oldest) return 0;
  const outcome = await watch(ctx, chain, account, oldest);
  return outcome.state === "pending" ? queue.nonces : queue.nonces - 1;
}

/**
 * The account's transactions on a chain that may still be mined, by nonce. Recorded as unmined is
 * not the chain's word: a transaction mined but short of its confirmations is still recorded as
 * sent, and its effect is already in the chain's latest state, so what it spends or holds is read
 * off the chain (its receipt) before it is counted.
 */
class InFlight {
  private readonly byNonce = new Map<number, Row[]>();
  /** The block each nonce was mined in (by any of its versions), or undefined while none is. */
  private readonly minedIn = new Map<number, Promise<bigint | undefined>>();
  constructor(
    private readonly chain: ConfiguredChain,
    rows: Row[],
  ) {
    for (const row of rows) this.byNonce.set(row.nonce, [...(this.byNonce.get(row.nonce) ?? []), row]);
  }
  get nonces(): number {
    return this.byNonce.size;
  }
  oldest(): Row[] | undefined {
    const first = Math.min(...this.byNonce.keys());
    return this.byNonce.get(first);
  }
  /** The nonce after the last one recorded: the chain's count does not know a recorded, unsent one. */
  nextNonce(chainCount: number): number {
    return Math.max(chainCount, ...[...this.byNonce.keys()].map((nonce) => nonce + 1));
  }
  /**
   * What the transactions not mined yet (as of `asOf`, when given) will spend of the account's
   * allowance for `spender`; undefined when one may spend it without saying how much (recorded
   * before payments said so).
   */
  async spending(token: Hex, spender: Hex, asOf?: bigint): Promise<bigint | undefined> {
    let total = 0n;
    for (const row of await this.pending(asOf)) {
      const spends = row.request?.allowance;
      if (!spends) {
        if (row.request?.to.toLowerCase() === spender.toLowerCase()) return undefined;
        continue;
      }
      if (sameAddress(spends.token, token) && sameAddress(spends.spender, spender))
        total += BigInt(spends.amount);
    }
    return total;
  }
  /** Whether a transaction not mined yet (as of `asOf`, when given) names `key` (PaymentRequest.serialWith). */
  async holds(key: string, asOf?: bigint): Promise<boolean> {
    return (await this.pending(asOf)).some((row) => row.request?.serialWith === key);
  }
  async anyUnmined(): Promise<boolean> {
    return (await this.pending()).length > 0;
  }
  /** The live version at each nonce none of whose versions the chain has mined (by block `asOf`, when given). */
  private async pending(asOf?: bigint): Promise<Row[]> {
    const live = [...this.byNonce.entries()].map(async ([nonce, versions]) => {
      let minedIn = this.minedIn.get(nonce);
      if (!minedIn) {
        minedIn = Promise.all(
          versions.map((version) => receiptOrUndefined(this.chain.client, version.hash as Hex)),
        ).then((receipts) =>
          receipts.reduce<bigint | undefined>(
            (first, receipt) =>
              receipt && (first === undefined || receipt.blockNumber < first) ? receipt.blockNumber : first,
            undefined,
          ),
        );
        this.minedIn.set(nonce, minedIn);
      }
      const block = await minedIn;
      const mined = block !== undefined && (asOf === undefined || block <= asOf);
      return mined ? undefined : liveOf(versions);
    });
    return (await Promise.all(live)).filter((row): row is Row => row !== undefined);
  }
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The chain's view of one payment's signed versions (one nonce). A mined version with the chain's
 * confirmations settles it (the others at its nonce can never be mined: dropped). While none is
 * mined, the live version is broadcast again if the chain does not know it, and replaced with
 * higher fees once it has waited SETTLEMENT_REPLACE_AFTER_SECONDS. If its nonce went, for good, to
 * a transaction that is none of them, every version is dropped and the order's timeline says so:
 * the payment is then signed again at a fresh nonce.
 */
async function watch(
  ctx: Context,
  chain: ConfiguredChain,
  account: Account,
  versions: Row[],
): Promise<TransactionOutcome> {
  const required = BigInt(Math.max(1, chain.confirmations));
  let broadcast = false;
  for (let look = 0; look < 2; look++) {
    const latest = await chain.client.getBlockNumber();
    for (const version of versions) {
      const receipt = await receiptOrUndefined(chain.client, version.hash as Hex);
      if (!receipt) continue;
      if (latest - receipt.blockNumber + 1n < required) {
        await setStatus(ctx, version, "sent", ["signed"]);
        return { state: "pending", reason: `${version.hash} awaits ${required} confirmations` };
      }
      if (version.request?.cancels) {
        await settleCancelled(ctx, versions, version);
        return { state: "pending", reason: "its stale version was cancelled; it is priced and signed again" };
      }
      const state = receipt.status === "success" ? "success" : "reverted";
      await settle(ctx, versions, version, state);
      return { state, hash: version.hash as Hex, purpose: version.purpose };
    }
    if (broadcast) break;

    const current = liveOf(versions);
    if (!current) return { state: "pending", reason: "no live version" };
    const known = await chain.client.getTransaction({ hash: current.hash as Hex }).catch(() => undefined);
    if (known) break;
    const refused = await chain.client
      .sendRawTransaction({ serializedTransaction: current.raw as Hex })
      .then(() => undefined)
      .catch((error: unknown) => String(error));
    if (refused && /nonce too low|nonce has already been used/i.test(refused)) {
      if (!(await nonceFinal(chain, account, current.nonce))) {
        return { state: "pending", reason: `nonce ${current.nonce} is taken by a transaction not yet final` };
      }
      // The nonce is final, so whatever took it is mined. It may be this very payment, broadcast by
      // another job (or as a replacement) since the receipts above were read: every version recorded
      // at the nonce is read again, and only when none was mined is the nonce someone else's.
      const atNonce = await versionsOf(ctx.db, chain, account, current);
      for (const version of atNonce) {
        if (await receiptOrUndefined(chain.client, version.hash as Hex))
          return watch(ctx, chain, account, atNonce);
      }
      await dropAll(ctx, atNonce, "its nonce was taken by another transaction");
      return { state: "pending", reason: "re-signing at a fresh nonce" };
    }
    // An earlier nonce of the account is not in the node's pool yet (a crashed job's recorded
    // transaction; a node that does not queue gaps): the next payment's look broadcasts the oldest.
    if (refused && /nonce too high/i.test(refused)) {
      return { state: "pending", reason: `nonce ${current.nonce} waits for the account's earlier nonces` };
    }
    if (refused && !/already known|already imported|known transaction/i.test(refused)) {
      throw new Error(`broadcasting ${current.hash} failed: ${refused}`);
    }
    ctx.faults?.at("after-broadcast", current.purpose);
    await setStatus(ctx, current, "sent", ["signed"]);
    broadcast = true;
  }

  const current = liveOf(versions);
  if (current && ctx.clock.now().getTime() - current.createdAt.getTime() >= replaceAfterMs(ctx)) {
    const validUntil = current.request?.validUntil;
    // Calldata past its validity is not signed again as is: the nonce is taken back, and the
    // payment quoted afresh once that is mined (the stale one may still be mined first: then it is made).
    if (validUntil && !current.request?.cancels && ctx.clock.now() > new Date(validUntil)) {
      await replace(ctx, chain, account, current, { cancel: true });
    } else {
      await replace(ctx, chain, account, current);
    }
  }
  return { state: "pending", reason: "not mined yet" };
}

/**
 * A cancelling version was mined at the payment's nonce: the payment moved nothing. Every version at
 * the nonce is dropped and the cancellation is kept apart (renamed, as a set-aside payment is), so the
 * payment is priced and signed again on its next look.
 */
async function settleCancelled(ctx: Context, versions: Row[], cancel: Row): Promise<void> {
  await settle(ctx, versions, cancel, "success", `${cancel.purpose}:cancelled:${cancel.id}`);
  if (!cancel.orderId) return;
  await noteOnTimeline(ctx, cancel.orderId, "PAYMENT_RESIGNED", {
    purpose: cancel.purpose,
    nonce: cancel.nonce,
    droppedHashes: versions.filter((row) => row.id !== cancel.id).map((row) => row.hash),
    reason: "its quote expired before it was mined; it was cancelled and is quoted again",
  });
}

/**
 * Signs the same payment at the same nonce with both fees raised, and broadcasts it; the old version
 * stays watched. With `cancel`, the new version is a transfer of nothing to the account itself: the
 * stale calldata is never signed again, and whichever of the two is mined settles the nonce.
 */
async function replace(
  ctx: Context,
  chain: ConfiguredChain,
  account: Account,
  current: Row,
  options: { cancel?: boolean } = {},
): Promise<void> {
  const request = current.request;
  if (!request) return;
  const replacement = await withAccountLock(ctx, chain, account, async (tx) => {
    const [still] = await tx
      .update(settlementTransactions)
      .set({ status: "replaced", updatedAt: ctx.clock.now() })
      .where(
        and(
          eq(settlementTransactions.id, current.id),
          inArray(settlementTransactions.status, ["signed", "sent"]),
        ),
      )
      .returning({ id: settlementTransactions.id });
    if (!still) return undefined;
    const fees = await chain.client.estimateFeesPerGas();
    const bump = (old: string, now: bigint) => {
      const raised = (BigInt(old) * REPLACEMENT_BUMP_PERMILLE + 999n) / 1000n;
      return raised > now ? raised : now;
    };
    const fields = {
      orderId: current.orderId,
      purpose: current.purpose,
      nonce: current.nonce,
      maxFeePerGas: bump(request.maxFeePerGas, fees.maxFeePerGas),
      maxPriorityFeePerGas: bump(request.maxPriorityFeePerGas, fees.maxPriorityFeePerGas),
    };
    if (options.cancel) {
      return sign(ctx, tx, chain, account, {
        ...fields,
        to: account.address,
        data: "0x",
        value: 0n,
        gas: CANCEL_GAS,
        cancels: true,
      });
    }
    return sign(ctx, tx, chain, account, {
      ...fields,
      to: request.to,
      data: request.data,
      value: BigInt(request.value),
      gas: BigInt(request.gas),
      ...(request.allowance
        ? { allowance: { ...request.allowance, amount: BigInt(request.allowance.amount) } }
        : {}),
      ...(request.serialWith ? { serialWith: request.serialWith } : {}),
      ...(request.validUntil ? { validUntil: request.validUntil } : {}),
      ...(request.cancels ? { cancels: true as const } : {}),
    });
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  });
  if (!replacement) return;
  ctx.log.info(
    options.cancel
      ? "stale settlement transaction cancelled"
      : "settlement transaction replaced with higher fees",
    {
      orderId: current.orderId,
      purpose: current.purpose,
      nonce: current.nonce,
      replaced: current.hash,
      by: replacement.hash,
    },
  );
  await chain.client
    .sendRawTransaction({ serializedTransaction: replacement.raw as Hex })
    .catch(() => undefined);
  await setStatus(ctx, replacement, "sent", ["signed"]);
}

/** Estimates, takes the account's next nonce and signs; records the signed bytes before anything is sent. */
async function signAndRecord(
  ctx: Context,
  tx: Database,
  chain: ConfiguredChain,
  account: Account,
  queue: InFlight,
  input: Omit<SignInput, "nonce" | "gas" | "maxFeePerGas" | "maxPriorityFeePerGas">,
): Promise<Row> {
  const from = account.address;
  const [chainCount, gas, fees] = await Promise.all([
    chain.client.getTransactionCount({ address: from, blockTag: "pending" }),
    chain.client
      .estimateGas({ account: from, to: input.to, data: input.data, value: input.value })
      .catch((error: unknown) => {
        if (error instanceof BaseError && error.walk((cause) => cause instanceof ExecutionRevertedError)) {
          throw new WouldRevert(input.purpose, `the chain would revert it (${error.shortMessage})`);
        }
        throw error;
      }),
    chain.client.estimateFeesPerGas(),
  ]);
  return sign(ctx, tx, chain, account, {
    ...input,
    nonce: queue.nextNonce(chainCount),
    // The estimate did not see the transactions in flight, which can turn a storage write from
    // non-zero into one from zero (an allowance spent to nothing, then approved again).
    gas: (gas * 12n) / 10n + (queue.nonces > 0 ? UNSEEN_STATE_GAS : 0n),
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
}

interface SignInput {
  orderId: string | null;
  purpose: string;
  nonce: number;
  to: Hex;
  data: Hex;
  value: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  allowance?: { token: Hex; spender: Hex; amount: bigint };
  serialWith?: string;
  validUntil?: string;
  cancels?: true;
}

/** A plain transfer of nothing: what cancelling a stale version at its nonce costs. */
const CANCEL_GAS = 21_000n;

async function sign(
  ctx: Context,
  tx: Database,
  chain: ConfiguredChain,
  account: Account,
  input: SignInput,
): Promise<Row> {
  if (!account.signTransaction) throw new Error("the settlement signer cannot sign transactions");
  const raw = await account.signTransaction({
    chainId: chain.chainId,
    type: "eip1559",
    to: input.to,
    data: input.data,
    value: input.value,
    nonce: input.nonce,
    gas: input.gas,
    maxFeePerGas: input.maxFeePerGas,
    maxPriorityFeePerGas: input.maxPriorityFeePerGas,
  });
  const now = ctx.clock.now();
  const request: RecordedRequest = {
    to: input.to,
    data: input.data,
    value: input.value.toString(),
    gas: input.gas.toString(),
    maxFeePerGas: input.maxFeePerGas.toString(),
    maxPriorityFeePerGas: input.maxPriorityFeePerGas.toString(),
    ...(input.allowance
      ? { allowance: { ...input.allowance, amount: input.allowance.amount.toString() } }
      : {}),
    ...(input.serialWith ? { serialWith: input.serialWith } : {}),
    ...(input.validUntil ? { validUntil: input.validUntil } : {}),
    ...(input.cancels ? { cancels: true as const } : {}),
  };
  const [row] = await tx
    .insert(settlementTransactions)
    .values({
      id: newId("stx", ctx.clock),
      orderId: input.orderId,
      purpose: input.purpose,
      chainId: chain.chainId,
      fromAddress: account.address.toLowerCase(),
      nonce: input.nonce,
      hash: keccak256(raw),
      raw,
      request,
      status: "signed",
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("the signed transaction was not recorded");
  return row;
}

/**
 * Runs `work` holding the account's lock on the chain (a row locked FOR UPDATE), so choosing,
 * estimating and signing the account's next transaction never interleave between jobs.
 */
/**
 * Runs `work` in a transaction holding the settlement account's lock on the chain: what signs and
 * records the account's payments holds it too, so a decision taken under it (an order's return)
 * and a payment being signed never interleave.
 */
export async function withAccountLock<T>(
  ctx: Context,
  chain: ConfiguredChain,
  account: Account,
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  const key = { chainId: chain.chainId, address: account.address.toLowerCase() };
  await ctx.db.insert(settlementAccountLocks).values(key).onConflictDoNothing();
  return ctx.db.transaction(async (tx) => {
    await tx
      .select()
      .from(settlementAccountLocks)
      .where(
        and(eq(settlementAccountLocks.chainId, key.chainId), eq(settlementAccountLocks.address, key.address)),
      )
      .for("update");
    return work(tx as unknown as Database);
  });
}

async function liveVersions(db: Database, orderId: string, purpose: string): Promise<Row[]> {
  const rows = await db
    .select()
    .from(settlementTransactions)
    .where(and(eq(settlementTransactions.orderId, orderId), eq(settlementTransactions.purpose, purpose)))
    .orderBy(asc(settlementTransactions.createdAt));
  // The versions at the live one's nonce (a replacement keeps its nonce); dropped ones never mine.
  const live = rows.find((row) => !SETTLED_ASIDE.has(row.status) && row.status !== "replaced");
  if (!live) return [];
  return rows.filter((row) => row.nonce === live.nonce && !SETTLED_ASIDE.has(row.status));
}

/** The account's transactions on the chain that may still be mined. */
function unminedOf(chain: ConfiguredChain, account: Account) {
  return and(
    eq(settlementTransactions.chainId, chain.chainId),
    eq(settlementTransactions.fromAddress, account.address.toLowerCase()),
    inArray(settlementTransactions.status, [...UNMINED_TRANSACTION_STATUSES]),
  );
}

async function unminedRows(db: Database, chain: ConfiguredChain, account: Account): Promise<Row[]> {
  return db
    .select()
    .from(settlementTransactions)
    .where(unminedOf(chain, account))
    .orderBy(asc(settlementTransactions.nonce), asc(settlementTransactions.createdAt));
}

const maxInFlight = (ctx: Context) => ctx.config.SETTLEMENT_MAX_IN_FLIGHT;

/**
 * Every version of one payment as recorded now: the same nonce, order, purpose and request (a
 * replacement differs in fees only), whatever another job did to them since `version` was read.
 */
async function versionsOf(
  db: Database,
  chain: ConfiguredChain,
  account: Account,
  version: Row,
): Promise<Row[]> {
  const rows = await db
    .select()
    .from(settlementTransactions)
    .where(
      and(
        eq(settlementTransactions.chainId, chain.chainId),
        eq(settlementTransactions.fromAddress, account.address.toLowerCase()),
        eq(settlementTransactions.nonce, version.nonce),
        eq(settlementTransactions.purpose, version.purpose),
        notInArray(settlementTransactions.status, ["orphaned"]),
      ),
    )
    .orderBy(asc(settlementTransactions.createdAt));
  return rows.filter(
    (row) =>
      row.orderId === version.orderId &&
      row.request?.to === version.request?.to &&
      row.request?.data === version.request?.data,
  );
}

function liveOf(versions: Row[]): Row | undefined {
  return versions.find((row) => row.status === "signed" || row.status === "sent");
}

/** Whether the account's transaction count, as of a block with the chain's confirmations, is past `nonce`. */
async function nonceFinal(chain: ConfiguredChain, account: Account, nonce: number): Promise<boolean> {
  const latest = await chain.client.getBlockNumber();
  const final = latest - BigInt(Math.max(1, chain.confirmations)) + 1n;
  if (final < 0n) return false;
  const count = await chain.client.getTransactionCount({ address: account.address, blockNumber: final });
  return count > nonce;
}

/** Settles a nonce on the version mined (renamed to `purpose` when given: a cancellation kept apart). */
async function settle(
  ctx: Context,
  versions: Row[],
  mined: Row,
  state: "success" | "reverted",
  purpose?: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    // The others at this nonce can never be mined now; dropped first, so the live indexes hold.
    const others = versions.filter((row) => row.id !== mined.id).map((row) => row.id);
    if (others.length > 0) {
      await tx
        .update(settlementTransactions)
        .set({ status: "dropped", updatedAt: now })
        .where(inArray(settlementTransactions.id, others));
    }
    await tx
      .update(settlementTransactions)
      .set({ status: state, updatedAt: now, ...(purpose ? { purpose } : {}) })
      .where(eq(settlementTransactions.id, mined.id));
  });
}

async function dropAll(ctx: Context, versions: Row[], reason: string): Promise<void> {
  const now = ctx.clock.now();
  const dropped = await ctx.db
    .update(settlementTransactions)
    .set({ status: "dropped", updatedAt: now })
    .where(
      and(
        inArray(
          settlementTransactions.id,
          versions.map((row) => row.id),
        ),
        inArray(settlementTransactions.status, [...UNMINED_TRANSACTION_STATUSES]),
      ),
    )
    .returning({ id: settlementTransactions.id });
  const [first] = versions;
  if (dropped.length === 0 || !first) return;
  ctx.log.warn("settlement transaction dropped; the payment will be signed again", {
    orderId: first.orderId,
    purpose: first.purpose,
    nonce: first.nonce,
    reason,
  });
  if (!first.orderId) return;
  await noteOnTimeline(ctx, first.orderId, "PAYMENT_RESIGNED", {
    purpose: first.purpose,
    nonce: first.nonce,
    droppedHashes: versions.map((row) => row.hash),
    reason,
  });
}

async function setStatus(ctx: Context, row: Row, status: string, from: string[]): Promise<void> {
  await ctx.db
    .update(settlementTransactions)
    .set({ status, updatedAt: ctx.clock.now() })
    .where(and(eq(settlementTransactions.id, row.id), inArray(settlementTransactions.status, from)));
}

function replaceAfterMs(ctx: Context): number {
  return ctx.config.SETTLEMENT_REPLACE_AFTER_SECONDS * 1000;
}

/** The purpose a reverted payment is kept under once set aside, so the payment can be signed afresh. */
const setAsidePurpose = (purpose: string, id: string) => `${purpose}:reverted:${id}`;

/**
 * Sets aside an order's reverted payments (all of them, or one purpose's): kept, renamed, so the
 * payment signs a new transaction on its next look. A payment that did not revert is never set
 * aside: it may still be mined. Answers how many were.
 */
export async function setAsideReverted(ctx: Context, orderId: string, purpose?: string): Promise<number> {
  const reverted = (
    await ctx.db
      .select()
      .from(settlementTransactions)
      .where(
        and(
          eq(settlementTransactions.orderId, orderId),
          eq(settlementTransactions.status, "reverted"),
          ...(purpose === undefined ? [] : [eq(settlementTransactions.purpose, purpose)]),
        ),
      )
  ).filter((row) => !row.purpose.includes(":reverted:"));
  for (const row of reverted) {
    await ctx.db
      .update(settlementTransactions)
      .set({ purpose: setAsidePurpose(row.purpose, row.id), updatedAt: ctx.clock.now() })
      .where(and(eq(settlementTransactions.id, row.id), eq(settlementTransactions.purpose, row.purpose)));
  }
  return reverted.length;
}

/** How many reverted versions of an order's payment were set aside already. */
export async function revertedVersions(ctx: Context, orderId: string, purpose: string): Promise<number> {
  const rows = await ctx.db
    .select({ purpose: settlementTransactions.purpose })
    .from(settlementTransactions)
    .where(and(eq(settlementTransactions.orderId, orderId), eq(settlementTransactions.status, "reverted")));
  return rows.filter((row) => row.purpose.startsWith(`${purpose}:reverted:`)).length;
}
