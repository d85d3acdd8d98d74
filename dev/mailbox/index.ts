// A local stand-in for Resend, for `npm run dev` and tests: the Resend adapter sends to it (baseUrl =
// its url) and a browser reads the inbox at that same url.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiHandler } from "./http-api";
import { MailboxStore } from "./mailbox-store";
import { LOCAL_MAILBOX_API_KEY, type LocalMailbox, type LocalMailboxOptions, type Logger } from "./types";

export type { LocalMailbox, LocalMailboxOptions, StoredEmail } from "./types";
export { LOCAL_MAILBOX_API_KEY } from "./types";

const HOST = "127.0.0.1";

export async function startLocalMailbox(options: LocalMailboxOptions = {}): Promise<LocalMailbox> {
  const log = safeLogger(options.log);
  const apiKey = options.apiKey ?? LOCAL_MAILBOX_API_KEY;
  const store = await MailboxStore.open(options.dataFile);
  const server = createServer(createApiHandler({ apiKey, store, log }));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${HOST}:${port}`;
  log({ event: "mailbox.listening", url, emails: store.newestFirst().length, dataFile: options.dataFile });

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey,
    emails: () => store.newestFirst(),
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections of senders and browsers would otherwise hold the server open.
          server.closeAllConnections();
        });
        await store.persist();
        log({ event: "mailbox.closed" });
      })();
      return closing;
    },
  };
}

/** A throwing log hook must not break sending. */
function safeLogger(log: Logger | undefined): Logger {
  if (!log) return () => {};
  return (line) => {
    try {
      log({ time: new Date().toISOString(), ...line });
    } catch {
      // Logging is best effort.
    }
  };
}
