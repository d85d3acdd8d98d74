// Public options and handle of the local mailbox, and the email record it keeps.

import type { ListenPort } from "../listen-port";

export interface LocalMailboxOptions {
  /** Port to listen on (127.0.0.1); 0 (the default) lets the OS pick one. */
  port?: ListenPort;
  /** Key senders must present as `Authorization: Bearer <apiKey>`; default LOCAL_MAILBOX_API_KEY. */
  apiKey?: string;
  /** When set, stored emails survive a restart (JSON file, written atomically; its directory is created). */
  dataFile?: string;
  /** JSON-line logging hook; default no-op. Lines never hold a full address or a body. */
  log?: (line: Record<string, unknown>) => void;
}

export interface LocalMailbox {
  /** Base URL to give the Resend adapter as `baseUrl`; its pages are the inbox in a browser. */
  url: string;
  apiKey: string;
  /** Every stored email, newest first. */
  emails(): StoredEmail[];
  close(): Promise<void>;
}

/** An email as accepted by `POST /emails`, with `to` always a list as Resend normalises it. */
export interface StoredEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** ISO 8601 time it was accepted. */
  createdAt: string;
}

export type { Logger } from "../loopback-http";

/** The default key: a fixed local value, so a dev config can name it without a secret store. */
export const LOCAL_MAILBOX_API_KEY = "re_local_mailbox_key";
