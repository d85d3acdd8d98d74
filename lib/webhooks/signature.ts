import { Webhook } from "standardwebhooks";

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * The Standard Webhooks headers for one attempt: one `v1,` signature per secret, space-separated,
 * so during a rotation a receiver holding either the old or the new secret verifies.
 */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" "),
  };
}
