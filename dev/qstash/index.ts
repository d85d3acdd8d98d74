// A local stand-in for Upstash QStash, for `npm run dev` and tests: the unmodified `Client` publishes to
// it (baseUrl = its url) and the unmodified `Receiver` accepts its signed deliveries.

import { createServer } from "node:http";
import { closeServer, listen, safeLogger } from "../loopback-http";
import { defaultRetryDelaySeconds } from "./backoff";
import { createApiHandler } from "./http-api";
import { MessageStore } from "./message-store";
import { DeliveryScheduler } from "./scheduler";
import type { LocalQStash, LocalQStashOptions } from "./types";

export type { LocalQStash, LocalQStashOptions } from "./types";

export async function startLocalQStash(opts: LocalQStashOptions): Promise<LocalQStash> {
  const log = safeLogger(opts.log);
  const store = await MessageStore.open(opts.dataFile);
  const scheduler = new DeliveryScheduler({
    store,
    signingKey: opts.currentSigningKey,
    backoffSeconds: opts.retryDelaySeconds ?? defaultRetryDelaySeconds,
    log,
  });
  const server = createServer(
    createApiHandler({
      token: opts.token,
      currentSigningKey: opts.currentSigningKey,
      nextSigningKey: opts.nextSigningKey,
      defaultRetries: opts.defaultRetries ?? 3,
      store,
      scheduler,
      log,
    }),
  );

  const { url, port } = await listen(server, { port: opts.port, host: opts.host });
  log({ event: "qstash.listening", url, pending: store.all().length, dataFile: opts.dataFile });
  // Messages reloaded from the data file (some perhaps overdue) are scheduled right away.
  scheduler.wake();

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    pending: () =>
      store.all().map(({ messageId, url: destination, notBefore, retried }) => ({
        messageId,
        url: destination,
        notBefore,
        retried,
      })),
    close: () => {
      closing ??= (async () => {
        await scheduler.close();
        await closeServer(server);
        await store.persist();
        log({ event: "qstash.closed" });
      })();
      return closing;
    },
  };
}
