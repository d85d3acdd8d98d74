import { SignJWT } from "jose";
import { systemClock } from "../clock";

/**
 * Signs a delivery the way QStash does: an HS256 JWT whose `sub` is the destination URL and whose
 * `body` claim is the base64url SHA-256 of the raw body. Used by the stand-ins (the in-process queue
 * of the tests and dev/qstash), so the worker's Receiver check is the production one.
 *
 * Issued at the system clock's time, never an injected one: the Receiver checks `iat`, `nbf` and
 * `exp` against real time, as QStash's signatures are, so a delivery signed on a test's manual clock
 * would be refused whenever that clock is not the wall's.
 */
export async function signQStashDelivery(input: {
  signingKey: string;
  url: string;
  rawBody: string | Uint8Array;
  messageId: string;
}): Promise<string> {
  const bytes = typeof input.rawBody === "string" ? new TextEncoder().encode(input.rawBody) : input.rawBody;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  const issuedAt = Math.floor(systemClock.now().getTime() / 1000);
  return new SignJWT({ body: base64url(new Uint8Array(digest)) })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("Upstash")
    .setSubject(input.url)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + 300)
    .setJti(`jwt_${input.messageId}_${crypto.randomUUID()}`)
    .sign(new TextEncoder().encode(input.signingKey));
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
