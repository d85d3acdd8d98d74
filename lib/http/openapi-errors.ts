import { z } from "@hono/zod-openapi";
import { VOLUME_LIMIT_NAMES } from "../compliance/limits";
import { ApiError } from "../kernel/errors/api-error";
import { errorBody } from "../kernel/errors/error-body";
import { ERROR_CODES, ERRORS, type ErrorCode, type ErrorDefinition } from "../kernel/errors/registry";
import { UNAUTHORIZED_BODY } from "./errors";

const problemSchema = z.object({
  field: z.string().openapi({ example: "body.sendAmountUsdc" }),
  code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
  problem: z.string(),
});

/** The one error body every operation answers with (docs/platform.md). */
export type ErrorResponseBody = z.infer<typeof errorBodySchema>;

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
      message: z.string().openapi({ description: "Spanish by default; English with `Accept-Language: en`." }),
      stage: z.string().openapi({
        description: "Where the flow was: REQUEST before any order exists, else the order's status.",
      }),
      fundsStatus: z.string(),
      fundsMoved: z.boolean(),
      retryable: z.boolean(),
      nextAction: z.string(),
      requestId: z.string().optional(),
      problems: z
        .array(problemSchema)
        .optional()
        .openapi({ description: "Every failing field of the request." }),
      attemptsLeft: z
        .number()
        .int()
        .optional()
        .openapi({ description: "OTP_INVALID only: how many more tries the code allows." }),
      kycLink: z
        .string()
        .optional()
        .openapi({ description: "KYC_REQUIRED only: where the user completes KYC." }),
      termsLink: z.string().optional().openapi({ description: "KYC_REQUIRED only: the terms to accept." }),
      knownVersions: z
        .array(z.string())
        .optional()
        .openapi({ description: "API_VERSION_UNKNOWN only: the dated versions the service answers at." }),
      requiredScope: z
        .string()
        .optional()
        .openapi({ description: "INSUFFICIENT_SCOPE only: the scope the operation needs." }),
      limit: z
        .enum(VOLUME_LIMIT_NAMES)
        .optional()
        .openapi({ description: "LIMIT_EXCEEDED only: the volume limit the amount passes." }),
      limitUsd: z
        .string()
        .optional()
        .openapi({ description: "LIMIT_EXCEEDED only: the limit, in US dollars." }),
      remainingUsd: z
        .string()
        .optional()
        .openapi({ description: "LIMIT_EXCEEDED only: what the window has left, in US dollars." }),
      resetsAt: z.string().datetime().nullable().optional().openapi({
        description:
          "LIMIT_EXCEEDED only: when enough of the window frees for this amount; null when the amount alone passes the limit.",
      }),
    }),
  })
  .openapi("ErrorBody");

const unauthorizedSchema = z
  .object({ error: z.string() })
  .openapi("Unauthorized", { example: { ...UNAUTHORIZED_BODY } });

/**
 * How an operation is called: with a partner key, the admin token, nothing (health, rate-limited per
 * IP), or as a provider's signed callback (no key, no rate limit, and the provider's `API-Version` is
 * never read: its 401 is CALLBACK_SIGNATURE_INVALID, one of its own codes).
 */
export type Auth = "partner" | "admin" | "none" | "callback";

/** What any route that takes a body can answer before its handler runs: over 64 KiB, or not UTF-8 JSON. */
export const BODY_ERRORS: ErrorCode[] = ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"];

/**
 * Every route can answer these, whatever its own errors are: a bad query parameter or a NUL anywhere
 * (INVALID_REQUEST), and a fault; all but the callbacks an unknown API-Version and a rate limit.
 */
const ALWAYS: Record<Auth, ErrorCode[]> = {
  partner: [
    "INVALID_REQUEST",
    "API_VERSION_UNKNOWN",
    "RATE_LIMITED",
    "INSUFFICIENT_SCOPE",
    "IP_NOT_ALLOWED",
    "INTERNAL_ERROR",
  ],
  admin: ["INVALID_REQUEST", "API_VERSION_UNKNOWN", "RATE_LIMITED", "INTERNAL_ERROR"],
  none: ["INVALID_REQUEST", "API_VERSION_UNKNOWN", "RATE_LIMITED", "INTERNAL_ERROR"],
  callback: ["INVALID_REQUEST", "INTERNAL_ERROR"],
};

/**
 * `Retry-After` as a status's codes carry it (the registry's `retryAfter`): required when every code
 * of the status always sends it, optional when some do, absent when none does.
 */
function retryAfterHeader(group: readonly ErrorCode[]) {
  const always = group.filter((code) => (ERRORS[code] as ErrorDefinition).retryAfter === "always");
  const whenKnown = group.filter((code) => (ERRORS[code] as ErrorDefinition).retryAfter === "when-known");
  if (always.length === 0 && whenKnown.length === 0) return undefined;
  const sentWith = [
    ...(always.length > 0 ? [`always with ${always.join(", ")}`] : []),
    ...(whenKnown.length > 0 ? [`with ${whenKnown.join(", ")} when the service knows how long`] : []),
  ];
  return {
    "Retry-After": {
      description: `Whole seconds to wait before trying again: ${sentWith.join("; ")}.`,
      required: always.length === group.length,
      schema: { type: "integer", minimum: 1 },
    },
  };
}

/**
 * The OpenAPI responses for a route's errors, grouped by status, each code with an example body
 * rendered by the same function that renders real errors, and `Retry-After` where its codes send it.
 */
export function errorResponses(codes: readonly ErrorCode[], auth: Auth) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...codes, ...ALWAYS[auth]])) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<
    number,
    { description: string; headers?: Record<string, unknown>; content: Record<string, unknown> }
  > = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = retryAfterHeader(group);
    responses[status] = {
      description: group.join(", "),
      ...(headers ? { headers } : {}),
      content: {
        "application/json": {
          schema: errorBodySchema,
          // Read when the document is generated: rendering every route's example bodies at import
          // would cost each isolate's start hundreds of errors built for the document alone.
          get examples() {
            return Object.fromEntries(
              group.map((code) => [
                code,
                { value: errorBody(new ApiError(code), "es", "req_01KEXAMPLE0000000000000000") },
              ]),
            );
          },
        },
      },
    };
  }
  if (auth === "partner" || auth === "admin") {
    responses[401] = {
      description: auth === "admin" ? "Missing or invalid admin token" : "Missing or invalid API key",
      content: { "application/json": { schema: unauthorizedSchema } },
    };
  }
  return responses;
}
