// A sandbox KYC provider for local development and tests. It speaks the contract in
// docs/kyc-provider-contract.md, so the production adapter (lib/vendors/kyc/kyc-http.ts) runs against it;
// its hosted KYC page has Approve and Reject buttons that send the signed callback.

import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { closeServer, listen } from "../loopback-http";
import { callbackSender, postTo } from "./callbacks";
import { CustomerStore } from "./customers";
import { createApiHandler } from "./http-api";
import type { SandboxKyc, SandboxKycOptions } from "./types";

export type { CallbackDeliver, SandboxKyc, SandboxKycOptions } from "./types";

export async function startSandboxKyc(options: SandboxKycOptions): Promise<SandboxKyc> {
  const apiKey = options.apiKey ?? `kyc_sandbox_${randomBytes(16).toString("hex")}`;
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  const deliver =
    options.deliver ?? (options.callbackUrl ? postTo(options.callbackUrl, stopping.signal) : undefined);
  // Built before listening, so a malformed secret fails here rather than on the first decision.
  const callbacks = callbackSender({
    secret: options.callbackSecret,
    deliver,
    now,
    stopped: stopping.signal,
  });

  let url = "";
  const publicBase = (options.publicUrl ?? "").replace(/\/+$/, "");
  const server = createServer(
    createApiHandler({
      apiKey,
      store: new CustomerStore(),
      callbacks,
      publicBase: () => publicBase || url,
      now,
    }),
  );
  ({ url } = await listen(server, { port: options.port }));

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey,
    close: () => {
      closing ??= (async () => {
        // Callbacks still retrying would otherwise outlive the server.
        stopping.abort();
        await closeServer(server);
      })();
      return closing;
    },
  };
}
