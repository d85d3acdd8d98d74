import { ERRORS, type ErrorCode } from "./registry";

type Localized = string | { es: string; en: string };

/** One failing field of a request: where it is and what is wrong with it. */
export interface Problem {
  field: string;
  code: ErrorCode;
  problem: string;
}

/** Facts some errors add to their body, beside the common fields. */
export interface ErrorExtras {
  /** OTP_INVALID: how many more tries the code allows. */
  attemptsLeft?: number;
  /** KYC_REQUIRED: where the user completes KYC. */
  kycLink?: string;
  termsLink?: string;
  /** API_VERSION_UNKNOWN: the dated versions the service answers at. */
  knownVersions?: string[];
  /** INSUFFICIENT_SCOPE: the scope the operation needs. */
  requiredScope?: string;
  /** LIMIT_EXCEEDED: which volume limit, its amount, what remains and when enough frees (null: never for this amount). */
  limit?: string;
  limitUsd?: string;
  remainingUsd?: string;
  resetsAt?: string | null;
}

export interface ApiErrorOptions {
  /** Said after the code's message: which check failed, which limit applies. */
  detail?: Localized;
  problems?: Problem[];
  /** Where the money is when this error happens; a request that moved nothing is the default. */
  stage?: string;
  fundsStatus?: string;
  fundsMoved?: boolean;
  retryAfterSeconds?: number;
  extras?: ErrorExtras;
}

/**
 * The one error type of the service. Domain verbs throw it; the HTTP layer turns it into the
 * documented body, with the status, retryability and next action from the registry.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly options: ApiErrorOptions;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(
      `${code}${options.detail ? `: ${typeof options.detail === "string" ? options.detail : options.detail.en}` : ""}`,
    );
    this.name = "ApiError";
    this.code = code;
    this.options = options;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}
