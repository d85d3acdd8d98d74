import { base64url } from "jose";
import { sha256, stringToBytes } from "viem";

/** What is stored of a session token: its SHA-256, so a leaked table opens no session. */
export function tokenHash(token: string): string {
  return sha256(stringToBytes(token));
}

/** 32 random bytes, base64url: a session token (dashboard, wallet) or a pre-session CSRF seed. */
export function randomToken(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
}
