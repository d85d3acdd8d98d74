import type { Hex } from "viem";
import { receiptOrUndefined } from "../../kernel/chain/receipt";
import type { ConfiguredChain } from "../../kernel/chain/registry";
import { liveOf } from "./records";
import type { TransactionRow } from "./types";

/**
 * The account's transactions on a chain that may still be mined, by nonce. Recorded as unmined is
 * not the chain's word: a transaction mined but short of its confirmations is still recorded as
 * sent, and its effect is already in the chain's latest state, so what it spends or holds is read
 * off the chain (its receipt) before it is counted.
 */
export class InFlight {
  private readonly byNonce = new Map<number, TransactionRow[]>();
  /** The block each nonce was mined in (by any of its versions), or undefined while none is. */
  private readonly minedIn = new Map<number, Promise<bigint | undefined>>();
  constructor(
    private readonly chain: ConfiguredChain,
    rows: TransactionRow[],
  ) {
    for (const row of rows) this.byNonce.set(row.nonce, [...(this.byNonce.get(row.nonce) ?? []), row]);
  }
  get nonces(): number {
    return this.byNonce.size;
  }
  oldest(): TransactionRow[] | undefined {
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
  private async pending(asOf?: bigint): Promise<TransactionRow[]> {
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
    return (await Promise.all(live)).filter((row): row is TransactionRow => row !== undefined);
  }
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
