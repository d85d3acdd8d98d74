// Signed `payout.status` callbacks, delivered in order with a few bounded retries. The KYC sandbox's
// sender is typed to KYC callbacks, so this one mirrors it for payout reports and reuses its POST.

import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { BrebPayoutReport } from "../../lib/providers/breb";
import type { CallbackDeliver } from "./types";

export { postTo } from "../kyc-sandbox/callbacks";

/** Attempts per callback, and the wait before each retry. */
export const CALLBACK_ATTEMPTS = 4;
const RETRY_DELAYS_MS = [100, 200, 400];

export type DeliveryOutcome =
  | { delivered: true; attempts: number; status: number }
  | { delivered: false; attempts: number; reason: string };

export interface PayoutCallbacks {
  /** Queues the report's callback behind the ones queued before it. */
  send(report: BrebPayoutReport): Promise<DeliveryOutcome>;
  /** Resolves once every callback queued so far is delivered or given up. */
  drained(): Promise<void>;
}

/**
 * One `msg_…` id per callback and each attempt signed afresh (a new webhook-timestamp), so the
 * receiver can drop a retry it already processed. Callbacks go one at a time, in the order the
 * states changed. `stopped` ends retries when the provider closes.
 */
export function payoutCallbacks(options: {
  secret: string;
  deliver: CallbackDeliver | undefined;
  now: () => Date;
  stopped: AbortSignal;
}): PayoutCallbacks {
  const webhook = new Webhook(options.secret);
  let queue: Promise<unknown> = Promise.resolve();

  async function deliverOne(report: BrebPayoutReport): Promise<DeliveryOutcome> {
    const deliver = options.deliver;
    if (!deliver) return { delivered: false, attempts: 0, reason: "no callbackUrl or deliver configured" };
    const body = JSON.stringify({ type: "payout.status", data: report });
    const id = `msg_${randomBytes(12).toString("hex")}`;
    let reason = "";
    for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS; attempt++) {
      if (attempt > 1) await pause(RETRY_DELAYS_MS[attempt - 2] ?? 0, options.stopped);
      if (options.stopped.aborted)
        return { delivered: false, attempts: attempt - 1, reason: "provider closed" };
      const at = options.now();
      const headers = {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": webhook.sign(id, at, body),
      };
      try {
        const { status } = await deliver(body, headers);
        if (status >= 200 && status < 300) return { delivered: true, attempts: attempt, status };
        reason = `HTTP ${status}`;
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
      }
    }
    return { delivered: false, attempts: CALLBACK_ATTEMPTS, reason };
  }

  return {
    send(report) {
      const sent = queue.then(() => deliverOne(report));
      // deliverOne never rejects, but a queue must not stop at one broken link.
      queue = sent.catch(() => {});
      return sent;
    },
    async drained() {
      await queue;
    },
  };
}

function pause(ms: number, stopped: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    stopped.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      stopped.removeEventListener("abort", done);
      resolve();
    }
  });
}
