import type { webhookEndpoints } from "../../schema";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { openSecret, sealSecret } from "../kernel/sealed-secret";

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

function secretsKey(ctx: ServiceContext): string {
  const key = ctx.config.WEBHOOK_SECRETS_KEY;
  if (!key) throw new ApiError("WEBHOOKS_UNCONFIGURED");
  return key;
}

/** A secret as the endpoint row stores it. */
export function sealFor(ctx: ServiceContext, endpointId: string, secret: string): Promise<string> {
  return sealSecret(secretsKey(ctx), secret, endpointId);
}

/** The secrets that sign at `at`: the current one, then each rotated-out one whose overlap lasts. */
export async function signingSecrets(
  ctx: ServiceContext,
  endpoint: EndpointRow,
  at: Date,
): Promise<string[]> {
  const key = secretsKey(ctx);
  const sealed = [
    endpoint.secretCiphertext,
    ...stillSigning(endpoint, at).map((previous) => previous.ciphertext),
  ];
  return Promise.all(sealed.map((ciphertext) => openSecret(key, ciphertext, endpoint.id)));
}

/** The rotated-out secrets whose overlap has not ended at `at`. */
export function stillSigning(endpoint: EndpointRow, at: Date): EndpointRow["previousSecrets"] {
  return endpoint.previousSecrets.filter((previous) => Date.parse(previous.until) > at.getTime());
}
