// The sandbox KYC provider's options and handle.

import type { ListenPort } from "../listen-port";
import type { CallbackDeliver } from "../signed-callbacks";

export type { CallbackDeliver };

export interface SandboxKyc {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

export interface SandboxKycOptions {
  port?: ListenPort;
  /** The Bearer key the API requires; a random one when not given. */
  apiKey?: string;
  /** The Standard Webhooks secret ("whsec_…") callbacks are signed with. */
  callbackSecret: string;
  /** Where decisions are sent: by default a POST to callbackUrl; tests pass their own (e.g. the in-process app). */
  callbackUrl?: string;
  deliver?: CallbackDeliver;
  /** Public base of the pages (the links it hands out); defaults to its own url. */
  publicUrl?: string;
  /** The sandbox's clock, for `updatedAt` and the callbacks' signature timestamps. */
  now?: () => Date;
}
