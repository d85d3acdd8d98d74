import { bytesToHex, type Hex, stringToBytes } from "viem";

/**
 * HMAC-SHA256 under `secret` (its UTF-8 bytes): a signer of messages, each MAC as 0x-hex. The key
 * is imported once, however many messages it signs.
 */
export async function hmacSha256(secret: string): Promise<(message: string) => Promise<Hex>> {
  const key = await crypto.subtle.importKey(
    "raw",
    stringToBytes(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return async (message) =>
    bytesToHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, stringToBytes(message))));
}
