// A local stand-in for Resend, for `npm run dev` and tests: the Resend adapter sends to it (baseUrl =
// its url) and a browser reads the inbox at that same url.

import { createServer } from "node:http";
import { closeServer, listen, safeLogger } from "../loopback-http";
import { createApiHandler } from "./http-api";
import { MailboxStore } from "./mailbox-store";
import { LOCAL_MAILBOX_API_KEY, type LocalMailbox, type LocalMailboxOptions } from "./types";

export type { LocalMailbox, LocalMailboxOptions, StoredEmail } from "./types";

export async function startLocalMailbox(options: LocalMailboxOptions = {}): Promise<LocalMailbox> {
  const log = safeLogger(options.log);
  const apiKey = options.apiKey ?? LOCAL_MAILBOX_API_KEY;
  const store = await MailboxStore.open(options.dataFile);
  const server = createServer(createApiHandler({ apiKey, store, log }));

  const { url } = await listen(server, { port: options.port });
  log({ event: "mailbox.listening", url, emails: store.newestFirst().length, dataFile: options.dataFile });

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey,
    emails: () => store.newestFirst(),
    close: () => {
      closing ??= (async () => {
        await closeServer(server);
        await store.persist();
        log({ event: "mailbox.closed" });
      })();
      return closing;
    },
  };
}
