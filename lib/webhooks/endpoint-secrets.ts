import type { webhookEndpoints } from "../../schema";
import type { ServiceContext } from "../context";
import { ApiError } from "../errors/api-error";
import { openSecret, sealSecret } from "./secret-box";

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

/** The secrets that sign at `at`: the current one, and the previous one while its overlap lasts. */
export async function signingSecrets(
  ctx: ServiceContext,
  endpoint: EndpointRow,
  at: Date,
): Promise<string[]> {
  const key = secretsKey(ctx);
  const secrets = [await openSecret(key, endpoint.secretCiphertext, endpoint.id)];
  if (
    endpoint.previousSecretCiphertext &&
    endpoint.previousSecretUntil &&
    endpoint.previousSecretUntil > at
  ) {
    secrets.push(await openSecret(key, endpoint.previousSecretCiphertext, endpoint.id));
  }
  return secrets;
}
