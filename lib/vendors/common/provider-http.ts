/**
 * The HTTP side of a provider adapter that speaks JSON behind a Bearer key (KYC, BRE-B): one request
 * within a deadline, the answer's status and body back, and the failures every such adapter reports
 * the same way. Each adapter keeps what is its own: which statuses it accepts, its refusals, its schemas.
 *
 * Every failure here is ProviderFailure("unavailable"), and the secrets a call names never reach its
 * message: a provider (or the network stack) may echo the request back.
 */

import type { z } from "zod";
import { withinDeadline } from "../../kernel/deadline";
import { ProviderFailure } from "../../kernel/provider-failure";
import { excerpt, type HttpAnswer } from "./http-get";

export interface ProviderHttpOptions {
  /** ProviderFailure's `provider`, e.g. "kyc". */
  provider: string;
  /** How messages name the provider, e.g. "KYC provider". */
  name: string;
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Notes added to a refusal's status beyond the key's; the BRE-B adapter reports rate limiting. */
  statusNotes?: Readonly<Record<number, string>>;
  /** Text removed from messages besides the secrets, e.g. anything email-like. */
  alsoRedact?: RegExp;
}

export interface ProviderHttp {
  /** `secrets` are redacted (the API key always is); `body`, when given, is sent as JSON. */
  request(
    method: "GET" | "POST",
    path: string,
    options?: { secrets?: readonly string[]; body?: unknown },
  ): Promise<HttpAnswer>;
  /** Any status the adapter cannot use; the provider's words are kept, minus the secrets. */
  refusal(answer: HttpAnswer, secrets?: readonly string[]): ProviderFailure;
  /** The body read by `schema`, or a failure naming the fields that did not fit. */
  read<T>(schema: z.ZodType<T>, what: string, body: string, secrets?: readonly string[]): T;
  redacted(text: string, secrets?: readonly string[]): string;
}

const KEY_REFUSED = "API key refused";

export function providerHttp(options: ProviderHttpOptions): ProviderHttp {
  const { provider, name, apiKey, timeoutMs } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const notes: Readonly<Record<number, string>> = {
    401: KEY_REFUSED,
    403: KEY_REFUSED,
    ...options.statusNotes,
  };
  const unavailable = (message: string, cause?: unknown) =>
    new ProviderFailure("unavailable", provider, message, cause === undefined ? undefined : { cause });
  const redacted = (text: string, secrets: readonly string[] = []) =>
    redactedText(text, [apiKey, ...secrets], options.alsoRedact);

  return {
    async request(method, path, { secrets, body } = {}) {
      const headers: Record<string, string> = {
        accept: "application/json",
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      };
      const sent = body === undefined ? undefined : JSON.stringify(body);
      try {
        return await withinDeadline(provider, timeoutMs, async (signal) => {
          const response = await fetch(`${baseUrl}${path}`, { method, headers, body: sent, signal });
          return { status: response.status, body: await response.text() };
        });
      } catch (error) {
        if (error instanceof ProviderFailure) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw unavailable(`${name} could not be reached: ${redacted(reason, secrets)}`, error);
      }
    },

    refusal(answer, secrets) {
      const note = notes[answer.status];
      return unavailable(
        `${name} answered HTTP ${answer.status}${note ? ` (${note})` : ""}: ${redacted(excerpt(answer.body), secrets)}`,
      );
    },

    read(schema, what, body, secrets) {
      const parsed = schema.safeParse(jsonOrUndefined(body));
      if (parsed.success) return parsed.data;
      const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "(body)").join(", ");
      throw unavailable(
        `${name} answered an unreadable ${what} (${fields}): ${redacted(excerpt(body), secrets)}`,
      );
    },

    redacted,
  };
}

/** The body parsed as JSON, or undefined for a schema to reject. */
export function jsonOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Secrets are matched in any case and without surrounding blanks, as a provider may normalize them. */
function redactedText(text: string, secrets: readonly string[], alsoRedact: RegExp | undefined): string {
  let out = text;
  for (const secret of secrets) {
    const trimmed = secret.trim();
    if (trimmed === "") continue;
    out = out.replace(new RegExp(trimmed.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "[redacted]");
  }
  return alsoRedact ? out.replace(alsoRedact, "[redacted]") : out;
}
