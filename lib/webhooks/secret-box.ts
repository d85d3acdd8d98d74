/**
 * Signing secrets at rest: AES-256-GCM under WEBHOOK_SECRETS_KEY, bound to the endpoint they belong
 * to (the endpoint id is the additional data), so a ciphertext copied onto another row does not open.
 * Stored as `v1.<iv>.<ciphertext>` in base64.
 */
const VERSION = "v1";
const SECRET_PREFIX = "whsec_";

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** What a listing shows of a secret: enough to tell two apart, nothing to sign with. */
export function maskedSecret(hint: string): string {
  return `${SECRET_PREFIX}••••••••${hint}`;
}

export function secretHint(secret: string): string {
  return secret.slice(-4);
}

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
  if (version !== VERSION || !iv || !sealed) throw new Error("not a sealed webhook secret");
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

function toBase64(bytes: Uint8Array): string {
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
