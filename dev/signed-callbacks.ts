// Standard Webhooks-signed callbacks from the local providers (KYC sandbox, BRE-B provider), each
// delivered with a few bounded retries.

import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** Sends one signed callback; answers the receiver's HTTP status. */
export type CallbackDeliver = (body: string, headers: Record<string, string>) => Promise<{ status: number }>;

/** Attempts per callback, and the wait before each retry: short, as the KYC sandbox's decision page waits on them. */
export const CALLBACK_ATTEMPTS = 4;
const RETRY_DELAYS_MS = [100, 200, 400];
const ATTEMPT_TIMEOUT_MS = 5_000;

export type DeliveryOutcome =
  | { delivered: true; attempts: number; status: number }
  | { delivered: false; attempts: number; reason: string };

export interface SignedCallbackSender<T> {
  /** Never rejects: a callback that cannot be delivered is an outcome, not an error. */
  send(data: T): Promise<DeliveryOutcome>;
}

/**
 * Sends `{ type, data }` bodies. Signs each attempt afresh (a new webhook-timestamp) under one `msg_…`
 * id per callback, so the receiver can drop a retry it already processed. `stopped` ends retries
 * when the provider closes; `closedReason` is how the outcome says so.
 */
export function signedCallbackSender<T>(options: {
  type: string;
  secret: string;
  deliver: CallbackDeliver | undefined;
  now: () => Date;
  stopped: AbortSignal;
  closedReason: string;
}): SignedCallbackSender<T> {
  const webhook = new Webhook(options.secret);
  return {
    async send(data) {
      const deliver = options.deliver;
      if (!deliver) return { delivered: false, attempts: 0, reason: "no callbackUrl or deliver configured" };
      const body = JSON.stringify({ type: options.type, data });
      const id = `msg_${randomBytes(12).toString("hex")}`;
      let reason = "";
      for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS; attempt++) {
        if (attempt > 1) await pause(RETRY_DELAYS_MS[attempt - 2] ?? 0, options.stopped);
        if (options.stopped.aborted) {
          return { delivered: false, attempts: attempt - 1, reason: options.closedReason };
        }
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
    },
  };
}

/** The default delivery: a POST of the signed body to `url`, each attempt bounded in time. */
export function postTo(url: string, stopped: AbortSignal): CallbackDeliver {
  return async (body, headers) => {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.any([stopped, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
    });
    // Read the answer so the connection is released for the next callback.
    await response.arrayBuffer();
    return { status: response.status };
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
