import type { ErrorBody } from "./generated/types.gen";

export type ErrorCode = ErrorBody["error"]["code"] | "UNAUTHORIZED" | "NETWORK_ERROR" | "UNEXPECTED_RESPONSE";

/**
 * Every failure of a call, thrown: an answer of the API carries its documented body (`code`,
 * `retryable`, `nextAction`, `fundsMoved`…); a 401 is `UNAUTHORIZED`; no answer at all (the network,
 * after the client's own retries) is `NETWORK_ERROR` with `status` 0.
 */
export class CopmApiError extends Error {
  override readonly name = "CopmApiError";
  readonly code: ErrorCode;
  readonly retryable: boolean;
  /** What the caller should do next (`FIX_REQUEST`, `CREATE_NEW_QUOTE`, `RETRY_LATER`…). */
  readonly nextAction: string;
  /** Whether money moved before the error: never retry blindly when it did. */
  readonly fundsMoved: boolean;
  readonly stage: string | undefined;
  readonly fundsStatus: string | undefined;
  readonly requestId: string | undefined;
  readonly problems: NonNullable<ErrorBody["error"]["problems"]>;
  constructor(
    readonly status: number,
    /** The body as the API sent it (a 401's `{ error: string }`, or the text of an unexpected answer). */
    readonly body: ErrorBody | { error: string } | string | undefined,
    cause?: unknown,
    /**
     * How long the answer's Retry-After asks to wait before trying again, in milliseconds (an
     * OTP_RESEND_TOO_SOON, a DEPOSIT_PENDING_CONFIRMATIONS, a rate limit the client did not wait out).
     */
    readonly retryAfterMs?: number,
  ) {
    const documented = typeof body === "object" && typeof body.error === "object" ? body.error : undefined;
    const code: ErrorCode = documented
      ? documented.code
      : status === 401
        ? "UNAUTHORIZED"
        : status === 0
          ? "NETWORK_ERROR"
          : "UNEXPECTED_RESPONSE";
    const message =
      documented?.message ??
      (typeof body === "object" && typeof body.error === "string" ? body.error : undefined) ??
      (cause instanceof Error ? cause.message : `HTTP ${status}`);
    super(`${code}: ${message}`, cause === undefined ? undefined : { cause });
    this.code = code;
    this.retryable = documented?.retryable ?? status === 0;
    this.nextAction = documented?.nextAction ?? (status === 0 ? "RETRY" : "CONTACT_SUPPORT");
    this.fundsMoved = documented?.fundsMoved ?? false;
    this.stage = documented?.stage;
    this.fundsStatus = documented?.fundsStatus;
    this.requestId = documented?.requestId;
    this.problems = documented?.problems ?? [];
  }
  /** The documented body's fields beyond the common ones (`attemptsLeft`, `kycLink`, `knownVersions`…). */
  get details(): Partial<ErrorBody["error"]> {
    return typeof this.body === "object" && typeof this.body.error === "object" ? this.body.error : {};
  }
}
