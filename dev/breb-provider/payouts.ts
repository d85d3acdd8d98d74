// The provider's payouts and their progress: processing, then completed after a while, or (a key
// starting 9999) failed and, a while later, refunded on the chain. Kept in memory, and in a JSON file
// when one is given so `npm run dev` keeps them across a restart.

import { randomBytes, randomInt } from "node:crypto";
import type { BrebPayoutReport, BrebPayoutRequest, BrebPayoutState } from "../../lib/payouts/breb-provider";
import { readJsonFile, writeFileAtomically } from "../json-file";
import type { PayoutCallbacks } from "./callbacks";
import type { DepositAccount } from "./chain";
import type { Address } from "./types";

/** A BRE-B key starting with this fails at the bank, and the deposit is refunded. */
const FAILING_KEY_PREFIX = "9999";
export const FAILURE_REASON = "the receiving bank rejected the transfer (sandbox: keys starting 9999 fail)";
/** Why a deposit went back at the service's request rather than paid. */
const RETURN_REASON = "returned to the payer at the service's request";

export interface StoredPayout {
  request: BrebPayoutRequest;
  providerPayoutId: string;
  status: BrebPayoutState;
  brebTransactionId?: string;
  failureReason?: string;
  refundTxHash?: string;
  /** A refund sent but not yet seen mined: waited for again instead of sent twice. */
  refundSentTxHash?: string;
  updatedAt: string;
  /** When the next state change is due; absent once the payout is final. */
  dueAt?: string;
}

const FORMAT_VERSION = 1;
/** How long a state change that failed (a refund the chain refused) waits before it is tried again. */
const RETRY_AFTER_MS = 5_000;

export class PayoutBook {
  #writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly payouts: Map<string, StoredPayout>,
    private readonly file: string | undefined,
  ) {}

  static async open(file: string | undefined): Promise<PayoutBook> {
    const payouts = new Map<string, StoredPayout>();
    if (file !== undefined)
      for (const payout of await load(file)) payouts.set(payout.request.payoutId, payout);
    return new PayoutBook(payouts, file);
  }

  get(payoutId: string): StoredPayout | undefined {
    return this.payouts.get(payoutId);
  }

  /**
   * The payout that already took this deposit, if any: the same transaction and Transfer log, or
   * the same transaction where either names no log (then the transaction pays for one payout).
   */
  byDeposit(txHash: string, logIndex: number | undefined): StoredPayout | undefined {
    for (const payout of this.payouts.values()) {
      if (payout.request.depositTxHash.toLowerCase() !== txHash.toLowerCase()) continue;
      const taken = payout.request.depositLogIndex;
      if (taken === undefined || logIndex === undefined || taken === logIndex) return payout;
    }
    return undefined;
  }

  async add(payout: StoredPayout): Promise<void> {
    this.payouts.set(payout.request.payoutId, payout);
    await this.persist();
  }

  /** Payouts with a state change due by `now`, the earliest first. */
  dueBy(now: Date): StoredPayout[] {
    return [...this.payouts.values()]
      .filter((payout) => payout.dueAt !== undefined && Date.parse(payout.dueAt) <= now.getTime())
      .sort((a, b) => Date.parse(a.dueAt ?? "") - Date.parse(b.dueAt ?? ""));
  }

  /** Writes one after another: two overlapping writes could otherwise land in the wrong order. */
  persist(): Promise<void> {
    const { file } = this;
    if (file === undefined) return Promise.resolve();
    const snapshot = JSON.stringify({ version: FORMAT_VERSION, payouts: [...this.payouts.values()] });
    this.#writing = this.#writing.catch(() => {}).then(() => writeFileAtomically(file, snapshot));
    return this.#writing;
  }
}

async function load(file: string): Promise<StoredPayout[]> {
  const saved = await readJsonFile(file);
  if (saved === undefined) return [];
  const parsed = saved as { version?: unknown; payouts?: unknown };
  if (parsed.version !== FORMAT_VERSION || !Array.isArray(parsed.payouts)) {
    throw new Error(`${file} is not a local BRE-B provider file (version ${FORMAT_VERSION})`);
  }
  return parsed.payouts as StoredPayout[];
}

/** The contract's view of a payout. */
export function reportOf(payout: StoredPayout): BrebPayoutReport {
  return {
    payoutId: payout.request.payoutId,
    providerPayoutId: payout.providerPayoutId,
    status: payout.status,
    ...(payout.brebTransactionId === undefined ? {} : { brebTransactionId: payout.brebTransactionId }),
    ...(payout.failureReason === undefined ? {} : { failureReason: payout.failureReason }),
    ...(payout.refundTxHash === undefined ? {} : { refundTxHash: payout.refundTxHash }),
    updatedAt: payout.updatedAt,
  };
}

export interface PayoutDeskOptions {
  book: PayoutBook;
  deposits: DepositAccount;
  tokens: Record<BrebPayoutRequest["token"], Address>;
  callbacks: PayoutCallbacks;
  completeAfterMs: number;
  now: () => Date;
}

/** Takes payouts and moves them along; state changes happen only in `settleDue`. */
export class PayoutDesk {
  constructor(private readonly options: PayoutDeskOptions) {}

  /** Records a new payout as processing (the deposit already checked) and sends its callback. */
  async open(request: BrebPayoutRequest): Promise<StoredPayout> {
    const now = this.options.now();
    const payout: StoredPayout = {
      request,
      providerPayoutId: `bpo_${randomBytes(12).toString("hex")}`,
      status: "processing",
      updatedAt: now.toISOString(),
      dueAt: this.#after(now),
    };
    await this.options.book.add(payout);
    void this.options.callbacks.send(reportOf(payout));
    return payout;
  }

  /** Fails a payout not yet paid so its deposit goes back (the next settleDue sends the refund). */
  async returnDeposit(payout: StoredPayout): Promise<StoredPayout> {
    if (payout.status !== "processing") return payout;
    const now = this.options.now();
    payout.status = "failed";
    payout.failureReason = RETURN_REASON;
    payout.updatedAt = now.toISOString();
    payout.dueAt = now.toISOString();
    await this.#changed(payout);
    return payout;
  }

  /** Records a deposit the provider never paid out as failed, its refund due now. */
  async openReturn(request: BrebPayoutRequest): Promise<StoredPayout> {
    const now = this.options.now();
    const payout: StoredPayout = {
      request,
      providerPayoutId: `bpo_${randomBytes(12).toString("hex")}`,
      status: "failed",
      failureReason: RETURN_REASON,
      updatedAt: now.toISOString(),
      dueAt: now.toISOString(),
    };
    await this.options.book.add(payout);
    void this.options.callbacks.send(reportOf(payout));
    return payout;
  }

  /**
   * Performs every state change due by `now()`, in the order they fell due. A refund that fails
   * leaves its payout failed, due again RETRY_AFTER_MS later; the first such error is thrown at the end.
   */
  async settleDue(): Promise<void> {
    const errors: unknown[] = [];
    for (const payout of this.options.book.dueBy(this.options.now())) {
      try {
        await this.#advance(payout);
      } catch (error) {
        // Tried again a little later, not on every tick.
        payout.dueAt = new Date(this.options.now().getTime() + RETRY_AFTER_MS).toISOString();
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }

  async #advance(payout: StoredPayout): Promise<void> {
    if (payout.status === "processing") {
      const now = this.options.now();
      if (payout.request.breBKey.startsWith(FAILING_KEY_PREFIX)) {
        payout.status = "failed";
        payout.failureReason = FAILURE_REASON;
        payout.dueAt = this.#after(now);
      } else {
        payout.status = "completed";
        payout.brebTransactionId = `BREB-${String(randomInt(0, 1e12)).padStart(12, "0")}`;
        delete payout.dueAt;
      }
      payout.updatedAt = now.toISOString();
      await this.#changed(payout);
    } else if (payout.status === "failed") {
      const token = this.options.tokens[payout.request.token];
      payout.refundSentTxHash ??= await this.options.deposits.sendRefund({
        token,
        to: payout.request.refundAddress as Address,
        amount: BigInt(payout.request.amount),
      });
      await this.options.book.persist();
      const sent = payout.refundSentTxHash as `0x${string}`;
      if (!(await this.options.deposits.succeeded(sent))) {
        // Sent again on the next try.
        delete payout.refundSentTxHash;
        await this.options.book.persist();
        throw new Error(`the refund transaction ${sent} of payout ${payout.request.payoutId} reverted`);
      }
      payout.status = "refunded";
      payout.refundTxHash = payout.refundSentTxHash;
      delete payout.refundSentTxHash;
      delete payout.dueAt;
      payout.updatedAt = this.options.now().toISOString();
      await this.#changed(payout);
    } else {
      delete payout.dueAt;
      await this.options.book.persist();
    }
  }

  async #changed(payout: StoredPayout): Promise<void> {
    await this.options.book.persist();
    void this.options.callbacks.send(reportOf(payout));
  }

  #after(now: Date): string {
    return new Date(now.getTime() + this.options.completeAfterMs).toISOString();
  }
}
