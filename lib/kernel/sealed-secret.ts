/**
 * Secrets the service must read back, at rest: AES-256-GCM under a configured key, bound to the
 * record they belong to (its id is the additional data), so a ciphertext copied onto another row
 * does not open. Stored as `v1.<iv>.<ciphertext>` in base64. Webhook signing secrets and members'
 * TOTP secrets are kept so, each under its own key.
 */
const VERSION = "v1";

export async function sealSecret(keyBase64: string, secret: string, boundTo: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encode(boundTo) },
    await importKey(keyBase64),
    encode(secret),
  );
  return [VERSION, toBase64(iv), toBase64(new Uint8Array(sealed))].join(".");
}

export async function openSecret(keyBase64: string, stored: string, boundTo: string): Promise<string> {
  const [version, iv, sealed] = stored.split(".");
  if (version !== VERSION || !iv || !sealed) throw new Error("not a sealed secret");
  const opened = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv), additionalData: encode(boundTo) },
    await importKey(keyBase64),
    fromBase64(sealed),
  );
  return new TextDecoder().decode(opened);
}

function importKey(keyBase64: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", fromBase64(keyBase64), "AES-GCM", false, ["encrypt", "decrypt"]);
}

function encode(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
