// Validates a `POST /emails` body the way Resend does for the fields the service sends. Messages name
// the field, never its value: the value may be an address.

import type { StoredEmail } from "./types";

/** Resend accepts at most 50 recipients in `to`. */
const MAX_RECIPIENTS = 50;

// Resend's check is looser than RFC 5322 and so is this one: something@something.something.
const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
// `from` may also be `Name <address>`.
const NAMED_ADDRESS = /^[^<>]*<([^<>]+)>$/;

type EmailDraft = Omit<StoredEmail, "id" | "createdAt">;

export type ParsedSendRequest = { ok: true; draft: EmailDraft } | { ok: false; error: string };

export function parseSendRequest(bodyText: string): ParsedSendRequest {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return { ok: false, error: "The request body must be valid JSON." };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, error: "The request body must be a JSON object." };
  }
  const { from, to, subject, text, html } = body as Record<string, unknown>;

  if (from === undefined) return fail("Missing `from` field.");
  if (typeof from !== "string" || !isSender(from)) {
    return fail(
      "Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
    );
  }
  if (to === undefined) return fail("Missing `to` field.");
  const recipients = typeof to === "string" ? [to] : to;
  if (!Array.isArray(recipients) || recipients.length === 0) {
    return fail("Invalid `to` field. It must be an email address or a non-empty array of them.");
  }
  if (recipients.length > MAX_RECIPIENTS) {
    return fail(`Invalid \`to\` field. At most ${MAX_RECIPIENTS} recipients are allowed.`);
  }
  if (!isAddressList(recipients)) {
    return fail("Invalid `to` field. The email address needs to follow the `email@example.com` format.");
  }
  if (subject === undefined) return fail("Missing `subject` field.");
  if (typeof subject !== "string") return fail("Invalid `subject` field. It must be a string.");
  if (text !== undefined && typeof text !== "string")
    return fail("Invalid `text` field. It must be a string.");
  if (html !== undefined && typeof html !== "string")
    return fail("Invalid `html` field. It must be a string.");
  if (text === undefined && html === undefined) return fail("Missing `html` or `text` field.");

  return {
    ok: true,
    draft: {
      from,
      to: recipients.map((address) => address.trim()),
      subject,
      text: text ?? "",
      html: html ?? "",
    },
  };
}

function isAddressList(values: unknown[]): values is string[] {
  return values.every((value) => typeof value === "string" && ADDRESS.test(value.trim()));
}

function isSender(from: string): boolean {
  const address = NAMED_ADDRESS.exec(from.trim())?.[1] ?? from;
  return ADDRESS.test(address.trim());
}

function fail(error: string): ParsedSendRequest {
  return { ok: false, error };
}
