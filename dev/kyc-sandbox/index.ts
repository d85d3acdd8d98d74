// A sandbox KYC provider for local development and tests. It speaks the contract in
// docs/kyc-provider-contract.md, so the production adapter (lib/providers/kyc.ts) runs against it;
// its hosted KYC page has Approve and Reject buttons that send the signed callback.

import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        stopping.abort();
        server.close(() => resolve());
        // Keep-alive connections would otherwise hold the server open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
