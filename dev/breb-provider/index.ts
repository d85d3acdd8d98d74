// A local BRE-B payout provider for development and tests. It speaks the contract in
// docs/breb-provider.openapi.yaml, so the production adapter (lib/vendors/breb/breb-http.ts) runs
// against it, and it takes real deposits on a local chain (dev/chains).
//
// Sandbox behaviour:
//   - Rates: 3912.45 COP per USDC and 1 COP per COPm (options.rates overrides them).
//   - Deposit address: Hardhat default account #3, 0x90F79bf6EB2c4f870365E785982E1f101E93b906, for
//     both tokens; the operator gives it gas at start, for refunds.
//   - Key resolution: a key starting 0000 is not found; an owner name containing "mismatch" (any
//     case) resolves to the holder "Titular Distinto"; otherwise the holder is the name as sent.
//   - Submit: the deposit transaction must have succeeded on the chain with an ERC-20 Transfer of
//     exactly `amount` of the token to the deposit address (else 422; 409 while it is not mined).
//     The payout is `processing`; `completeAfterMs` (2000) later it is `completed` with a
//     `BREB-<12 digits>` transaction id. A key starting 9999 becomes `failed` instead, and
//     `completeAfterMs` after that `refunded`: the deposit account transfers `amount` back to
//     `refundAddress` on the chain, and the report carries that transaction's hash.
//   - Each state change (processing included) sends a signed `payout.status` callback.
//   - autoSettle false: nothing moves unless `settle()` is called (tests on a manual clock).

import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { BrebToken } from "../../lib/payouts/breb-provider";
import { closeServer, listen } from "../loopback-http";
import { payoutCallbacks, postTo } from "./callbacks";
import { DepositAccount } from "./chain";
import { createApiHandler } from "./http-api";
import { PayoutBook, PayoutDesk } from "./payouts";
import type { LocalBrebProvider, LocalBrebProviderOptions } from "./types";

export { LOCAL_BREB_DEPOSIT_KEY } from "./chain";
export { FAILURE_REASON } from "./payouts";
export type * from "./types";

/** COP the sandbox pays per whole token. */
const LOCAL_BREB_RATES: Readonly<Record<BrebToken, string>> = { USDC: "3912.45", COPm: "1" };
const DEFAULT_COMPLETE_AFTER_MS = 2_000;
/** How often the timer looks for due state changes when autoSettle is on. */
const SETTLE_EVERY_MS = 100;

export async function startLocalBrebProvider(options: LocalBrebProviderOptions): Promise<LocalBrebProvider> {
  const apiKey = options.apiKey ?? `breb_sandbox_${randomBytes(16).toString("hex")}`;
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  const deliver =
    options.deliver ?? (options.callbackUrl ? postTo(options.callbackUrl, stopping.signal) : undefined);
  // Built before listening, so a malformed secret fails here rather than on the first callback.
  const callbacks = payoutCallbacks({
    secret: options.callbackSecret,
    deliver,
    now,
    stopped: stopping.signal,
  });
  const rates = { ...LOCAL_BREB_RATES, ...definedOf(options.rates) };
  for (const [token, rate] of Object.entries(rates)) {
    if (!/^\d+(\.\d+)?$/.test(rate) || !/[1-9]/.test(rate)) {
      throw new Error(`the ${token} rate must be a positive decimal string, not ${JSON.stringify(rate)}`);
    }
  }
  const tokens = options.chain.tokens;

  const deposits = new DepositAccount(options.chain);
  await deposits.fundGas(options.operatorKey);
  const book = await PayoutBook.open(options.stateFile);
  const desk = new PayoutDesk({
    book,
    deposits,
    tokens,
    callbacks,
    completeAfterMs: options.completeAfterMs ?? DEFAULT_COMPLETE_AFTER_MS,
    now,
  });

  const server = createServer(
    createApiHandler({
      apiKey,
      chainId: options.chain.chainId,
      depositAddress: deposits.address,
      rates,
      tokens,
      book,
      desk,
      checkDeposit: (input) => deposits.checkDeposit(input),
    }),
  );
  const { url } = await listen(server, { port: options.port });

  // One settlement at a time, whether the timer or a caller asks.
  let settling: Promise<void> = Promise.resolve();
  const settle = () => {
    const run = settling
      .catch(() => {})
      .then(async () => {
        try {
          await desk.settleDue();
        } finally {
          await callbacks.drained();
        }
      });
    settling = run;
    return run;
  };

  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking = false;
  if (options.autoSettle !== false) {
    timer = setInterval(() => {
      if (ticking) return;
      ticking = true;
      settle()
        .catch((error: unknown) => {
          // Retried on the next tick; said, so a refund that keeps failing is not silent.
          console.warn(`local BRE-B provider: ${error instanceof Error ? error.message : String(error)}`);
        })
        .finally(() => {
          ticking = false;
        });
    }, SETTLE_EVERY_MS);
    timer.unref();
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey,
    depositAddress: deposits.address,
    settle,
    close: () => {
      closing ??= (async () => {
        clearInterval(timer);
        // Callbacks still retrying would otherwise outlive the server.
        stopping.abort();
        await closeServer(server);
        await book.persist();
      })();
      return closing;
    },
  };
}

function definedOf(rates: LocalBrebProviderOptions["rates"]): Partial<Record<BrebToken, string>> {
  return Object.fromEntries(Object.entries(rates ?? {}).filter(([, rate]) => rate !== undefined));
}
