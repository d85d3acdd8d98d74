import { Client, Receiver } from "@upstash/qstash";
import { decodeJwt } from "jose";
import { type ComponentCheck, type Jobs, jobUrl, timed } from "./jobs";

export interface QStashJobsOptions {
  baseUrl: string;
  token: string;
  publicUrl: string;
  retries?: number;
  checkTimeoutMs?: number;
}

/** Production adapter: each job is a QStash message addressed to this worker's job endpoint. */
export function qstashJobs(options: QStashJobsOptions): Jobs {
  const client = new Client({ baseUrl: options.baseUrl, token: options.token });
  return {
    async enqueue(job, payload, enqueueOptions = {}) {
      const body = job.payload.parse(payload);
      const response = await client.publishJSON({
        url: jobUrl(options.publicUrl, job.kind),
        body,
        retries: options.retries ?? 5,
        ...(enqueueOptions.delaySeconds ? { delay: Math.ceil(enqueueOptions.delaySeconds) } : {}),
        ...(enqueueOptions.dedupeId ? { deduplicationId: enqueueOptions.dedupeId } : {}),
      });
      return { messageId: response.messageId, deduplicated: response.deduplicated ?? false };
    },
    check: () => checkQStash(options.baseUrl, options.token, options.checkTimeoutMs ?? 2_000),
  };
}

/** An authenticated, side-effect-free call: listing schedules proves reachability and the token. */
async function checkQStash(baseUrl: string, token: string, timeoutMs: number): Promise<ComponentCheck> {
  try {
    const { value: response, latencyMs } = await timed(() =>
      fetch(`${baseUrl.replace(/\/+$/, "")}/v2/schedules`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(timeoutMs),
      }),
    );
    await response.body?.cancel();
    return response.ok
      ? { status: "up", latencyMs }
      : { status: "down", latencyMs, detail: `queue answered HTTP ${response.status}` };
  } catch (error) {
    return {
      status: "down",
      latencyMs: timeoutMs,
      detail: error instanceof Error ? error.name : "unreachable",
    };
  }
}

/** A delivery whose signature verified, named by what the signature covers. */
interface VerifiedDelivery {
  /** The JWT's `jti` (or, lacking one, the digest of the whole signed token): unique per signed attempt. */
  deliveryId: string;
}

export interface JobSignatureVerifier {
  verify(input: { signature: string; rawBody: string; url: string }): Promise<VerifiedDelivery | undefined>;
}

/**
 * Checks `Upstash-Signature` with QStash's own Receiver (current key, then next, for rotation), then
 * names the delivery by a claim of the token it just verified, never by an unsigned header.
 */
export function qstashVerifier(keys: { current: string; next: string }): JobSignatureVerifier {
  const receiver = new Receiver({
    currentSigningKey: keys.current,
    nextSigningKey: keys.next,
    devMode: false,
  });
  return {
    async verify({ signature, rawBody, url }) {
      const valid = await receiver
        .verify({ signature, body: rawBody, url, clockTolerance: 5 })
        .catch(() => false);
      if (!valid) return undefined;
      const { jti } = decodeJwt(signature);
      return { deliveryId: typeof jti === "string" && jti.length > 0 ? jti : await digestOf(signature) };
    },
  };
}

async function digestOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}
