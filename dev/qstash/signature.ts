// The Upstash-Signature QStash puts on every delivery: an HS256 JWT over the destination and a hash of
// the raw body, signed with the current signing key. The `Receiver` verifies exactly these claims.

import { createHash, randomBytes } from "node:crypto";
import { SignJWT } from "jose";

/** QStash signatures are valid for five minutes. */
const LIFETIME_SECONDS = 5 * 60;

export async function signDelivery(input: {
  signingKey: string;
  url: string;
  body: Buffer;
  now: number;
}): Promise<string> {
  const issuedAt = Math.floor(input.now / 1000);
  return new SignJWT({ body: bodyHash(input.body) })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("Upstash")
    .setSubject(input.url)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + LIFETIME_SECONDS)
    .setJti(`jwt_${randomBytes(16).toString("hex")}`)
    .sign(new TextEncoder().encode(input.signingKey));
}

/** base64url SHA-256 of the body bytes. Kept with its "=" padding like the service's tokens; the
 * Receiver strips padding on both sides before comparing. */
function bodyHash(body: Buffer): string {
  const digest = createHash("sha256").update(body).digest("base64");
  return digest.replaceAll("+", "-").replaceAll("/", "_");
}
