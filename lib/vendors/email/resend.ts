import type { EmailMessage, EmailSender } from "../../identity/ports";
import { withinDeadline } from "../../kernel/deadline";
import { ProviderFailure } from "../../kernel/provider-failure";
import { excerpt } from "../common/http-get";

const PROVIDER = "email";

export interface ResendEmailOptions {
  apiKey: string;
  /** `https://api.resend.com`, or the local mailbox's url in development and tests. */
  baseUrl: string;
  /** Sender, e.g. `COPm <no-reply@example.com>`; the domain must be verified with Resend. */
  from: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * Sends through Resend's REST API, `POST /emails` (resend.com/docs/api-reference/emails/send-email),
 * without the `resend` package. Failure messages never carry the recipient, the API key or the
 * body: the body holds a one-time code and failure messages end up in logs.
 */
export function resendEmail(options: ResendEmailOptions): EmailSender {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/emails`;
  // Called unbound: Workers throw "Illegal invocation" when fetch is called as a method of another object.
  const fetchImpl: typeof fetch = options.fetch ?? ((url, init) => fetch(url, init));

  return {
    async send(message) {
      const answer = await post(fetchImpl, endpoint, options, message);
      const secrets = [message.to, options.apiKey];
      if (answer.status < 200 || answer.status > 299) {
        throw new ProviderFailure(
          failureKindOf(answer.status),
          PROVIDER,
          `Resend answered HTTP ${answer.status}: ${excerpt(redact(answer.body, secrets))}`,
        );
      }
      const id = idOf(answer.body);
      if (id === undefined) {
        throw new ProviderFailure(
          "unavailable",
          PROVIDER,
          `Resend answered HTTP ${answer.status} without an email id: ${excerpt(redact(answer.body, secrets))}`,
        );
      }
      return { id };
    },
  };
}

async function post(
  fetchImpl: typeof fetch,
  endpoint: string,
  options: ResendEmailOptions,
  message: EmailMessage,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    from: options.from,
    to: [message.to],
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
  try {
    return await withinDeadline(PROVIDER, options.timeoutMs, async (signal) => {
      const response = await fetchImpl(endpoint, {
        method: "POST",
        headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
        body,
        signal,
      });
      return { status: response.status, body: await response.text() };
    });
  } catch (error) {
    if (error instanceof ProviderFailure) throw error;
    // The transport's own words only: its error is about the connection, never the request body.
    throw new ProviderFailure("unavailable", PROVIDER, `Resend could not be reached: ${describe(error)}`, {
      cause: error,
    });
  }
}

/**
 * Rate limits and server errors pass; any other 4xx (bad key, unverified domain, invalid field)
 * will be refused again as sent. There is no "rejected" kind, and `no_route` is the one that means
 * "answered clearly that it will not do this", so a refusal is reported as that.
 */
function failureKindOf(status: number): "unavailable" | "no_route" {
  return status === 429 || status >= 500 || status < 400 ? "unavailable" : "no_route";
}

function idOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "id" in parsed) {
      const { id } = parsed;
      if (typeof id === "string" && id !== "") return id;
    }
  } catch {
    // An unreadable answer is reported by the caller like an answer without an id.
  }
  return undefined;
}

/** Resend's validation messages may quote the address it refused; a failure message must not. */
function redact(text: string, secrets: string[]): string {
  return secrets.reduce(
    (result, secret) => (secret === "" ? result : result.split(secret).join("[redacted]")),
    text,
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
