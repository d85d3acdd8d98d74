import { toBase64 } from "../kernel/sealed-secret";

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
