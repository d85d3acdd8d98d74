// The provider's deposit account on the payout chain: it receives the users' deposits, the provider
// checks each deposit there, and refunds leave from it.

import {
  type Account,
  erc20Abi,
  type Hex,
  parseEther,
  parseEventLogs,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sandboxPublicClient, sandboxWalletClient } from "../chains/clients";
import type { Address, LocalBrebChain } from "./types";

/**
 * The deposit account's key: Hardhat's public default account #3 (mnemonic "test test … junk"), used
 * nowhere else in dev/ (#0 is the chains' operator, #1 and #2 are in local-defaults.ts). Known to
 * everyone, so it guards nothing: local chains only. Tests sign with it to send refunds the way the
 * provider does, from the deposit account.
 */
export const LOCAL_BREB_DEPOSIT_KEY =
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6" as const;

/** 0x90F79bf6EB2c4f870365E785982E1f101E93b906 */
const localBrebDepositAccount: Account = privateKeyToAccount(LOCAL_BREB_DEPOSIT_KEY);

/** Gas the operator gives the deposit account at start, when it holds less than half of it. */
const DEPOSIT_ACCOUNT_GAS = parseEther("10");

/** Why a deposit does not check out: 422 for good, 409 while its transaction is not mined yet. */
export class DepositRefused extends Error {
  constructor(
    readonly status: 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

export class DepositAccount {
  readonly address: Address = localBrebDepositAccount.address;
  readonly #chain: { chainId: number; name: string; rpcUrl: string };
  readonly #public;
  readonly #wallet;
  /** Refunds are sent one at a time, so two never take the same nonce. */
  #sending: Promise<unknown> = Promise.resolve();

  constructor(chain: LocalBrebChain) {
    this.#chain = {
      chainId: chain.chainId,
      name: `BRE-B payout chain ${chain.chainId}`,
      rpcUrl: chain.rpcUrl,
    };
    this.#public = sandboxPublicClient(this.#chain);
    this.#wallet = sandboxWalletClient(this.#chain, localBrebDepositAccount);
  }

  /** The operator tops the deposit account up with gas for its refunds. */
  async fundGas(operatorKey: Address): Promise<void> {
    const balance = await this.#public.getBalance({ address: this.address });
    if (balance >= DEPOSIT_ACCOUNT_GAS / 2n) return;
    const operator = sandboxWalletClient(this.#chain, privateKeyToAccount(operatorKey));
    const hash = await operator.sendTransaction({ to: this.address, value: DEPOSIT_ACCOUNT_GAS - balance });
    if (!(await this.succeeded(hash)))
      throw new Error(`the deposit account's gas transaction ${hash} reverted`);
  }

  /**
   * Resolves when `txHash` is a successful transaction on the chain with an ERC-20 Transfer of exactly
   * `amount` of `token` to the deposit address (the one at `logIndex`, when given); otherwise rejects
   * with DepositRefused. An RPC failure rejects with that error (the provider answers 503).
   */
  async checkDeposit(input: {
    token: Address;
    amount: bigint;
    txHash: Hex;
    logIndex?: number;
  }): Promise<void> {
    let receipt: TransactionReceipt;
    try {
      receipt = await this.#public.getTransactionReceipt({ hash: input.txHash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
      const pending = await this.#public.getTransaction({ hash: input.txHash }).then(
        () => true,
        (lookup: unknown) => {
          if (lookup instanceof TransactionNotFoundError) return false;
          throw lookup;
        },
      );
      if (pending) throw new DepositRefused(409, "the deposit transaction is not mined yet; retry");
      throw new DepositRefused(422, `no transaction ${input.txHash} on chain ${this.#chain.chainId}`);
    }
    if (receipt.status !== "success") {
      throw new DepositRefused(422, `the deposit transaction ${input.txHash} reverted`);
    }
    const toDeposit = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).filter(
      (log) =>
        sameAddress(log.address, input.token) &&
        sameAddress(log.args.to, this.address) &&
        (input.logIndex === undefined || log.logIndex === input.logIndex),
    );
    if (toDeposit.some((log) => log.args.value === input.amount)) return;
    if (toDeposit.length === 0) {
      throw new DepositRefused(
        422,
        `the deposit transaction ${input.txHash} transfers no ${input.token} to the deposit address ${this.address}`,
      );
    }
    const sent = toDeposit.map((log) => log.args.value.toString()).join(", ");
    throw new DepositRefused(
      422,
      `the deposit transaction ${input.txHash} transfers ${sent}, not ${input.amount}, to the deposit address`,
    );
  }

  /** Sends `amount` of `token` back to `to`; resolves with the transaction's hash once it is sent. */
  sendRefund(input: { token: Address; to: Address; amount: bigint }): Promise<Hex> {
    const sending = this.#sending
      .catch(() => {})
      .then(() =>
        this.#wallet.writeContract({
          address: input.token,
          abi: erc20Abi,
          functionName: "transfer",
          args: [input.to, input.amount],
        }),
      );
    this.#sending = sending;
    return sending;
  }

  /** Whether the transaction, once mined, succeeded. */
  async succeeded(hash: Hex): Promise<boolean> {
    const receipt = await this.#public.waitForTransactionReceipt({ hash });
    return receipt.status === "success";
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
