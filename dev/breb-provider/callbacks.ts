// Signed `payout.status` callbacks (dev/signed-callbacks.ts), delivered in order.

import type { BrebPayoutReport } from "../../lib/payouts/breb-provider";
import { type CallbackDeliver, type DeliveryOutcome, signedCallbackSender } from "../signed-callbacks";

export { CALLBACK_ATTEMPTS, postTo } from "../signed-callbacks";

export interface PayoutCallbacks {
  /** Queues the report's callback behind the ones queued before it. */
  send(report: BrebPayoutReport): Promise<DeliveryOutcome>;
  /** Resolves once every callback queued so far is delivered or given up. */
  drained(): Promise<void>;
}

/**
 * Callbacks go one at a time, in the order the states changed, so the receiver never sees a payout
 * move backwards. `stopped` ends retries when the provider closes.
 */
export function payoutCallbacks(options: {
  secret: string;
  deliver: CallbackDeliver | undefined;
  now: () => Date;
  stopped: AbortSignal;
}): PayoutCallbacks {
  const sender = signedCallbackSender<BrebPayoutReport>({
    ...options,
    type: "payout.status",
    closedReason: "provider closed",
  });
  let queue: Promise<unknown> = Promise.resolve();

  return {
    send(report) {
      const sent = queue.then(() => sender.send(report));
      // The sender never rejects, but a queue must not stop at one broken link.
      queue = sent.catch(() => {});
      return sent;
    },
    async drained() {
      await queue;
    },
  };
}
