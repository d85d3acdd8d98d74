// Signed `kyc.status` callbacks, delivered with a few bounded retries (dev/signed-callbacks.ts).

import type { KycCallback } from "../../lib/identity/ports";
import { type CallbackDeliver, type SignedCallbackSender, signedCallbackSender } from "../signed-callbacks";

export { type DeliveryOutcome, postTo } from "../signed-callbacks";

export type CallbackSender = SignedCallbackSender<KycCallback>;

/** `stopped` ends retries when the sandbox closes. */
export function callbackSender(options: {
  secret: string;
  deliver: CallbackDeliver | undefined;
  now: () => Date;
  stopped: AbortSignal;
}): CallbackSender {
  return signedCallbackSender({ ...options, type: "kyc.status", closedReason: "sandbox closed" });
}
