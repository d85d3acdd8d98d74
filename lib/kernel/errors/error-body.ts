import type { ApiError, ErrorExtras, Problem } from "./api-error";
import { ERRORS, type ErrorCode, type NextAction } from "./registry";

export type Language = "es" | "en";

/** Spec 2.4: the body of every error but 401. */
export interface ErrorBody {
  error: ErrorExtras & {
    code: ErrorCode;
    message: string;
    stage: string;
    fundsStatus: string;
    fundsMoved: boolean;
    retryable: boolean;
    nextAction: NextAction;
    requestId?: string;
    problems?: Problem[];
  };
}

/** A request the service refused before anything happened: nothing left the user's wallet. */
const DEFAULT_STAGE = "REQUEST";
const DEFAULT_FUNDS_STATUS = "IN_USER_WALLET";

export function errorBody(error: ApiError, language: Language, requestId?: string): ErrorBody {
  const definition = ERRORS[error.code];
  const { detail, problems, stage, fundsStatus, fundsMoved, extras } = error.options;
  const detailText = detail === undefined ? "" : ` ${typeof detail === "string" ? detail : detail[language]}`;
  return {
    error: {
      code: error.code,
      message: `${definition.message[language]}${detailText}`,
      stage: stage ?? DEFAULT_STAGE,
      fundsStatus: fundsStatus ?? DEFAULT_FUNDS_STATUS,
      fundsMoved: fundsMoved ?? false,
      retryable: definition.retryable,
      nextAction: definition.nextAction,
      ...(requestId ? { requestId } : {}),
      ...(problems && problems.length > 0 ? { problems } : {}),
      ...extras,
    },
  };
}

/** Spanish unless the caller prefers English (the spec's example message is Spanish). */
export function preferredLanguage(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return "es";
  const ranked = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag, q: q ? Number.parseFloat(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === "en" || tag.startsWith("en-")) return "en";
    if (tag === "es" || tag.startsWith("es-")) return "es";
  }
  return "es";
}
