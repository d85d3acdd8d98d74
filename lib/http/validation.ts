import type { Hook } from "@hono/zod-openapi";
import { ApiError, type Problem } from "../kernel/errors/api-error";
import type { ErrorCode } from "../kernel/errors/registry";
import type { AppEnv } from "./env";

/**
 * Fields whose failure has a code of its own in the spec (section 7). Any other failing field is
 * INVALID_REQUEST. Keyed by where the field is read from and its path.
 */
const FIELD_CODES: Record<string, ErrorCode> = {
  "json:sendAmountUsdc": "INVALID_AMOUNT",
  "json:receiveAmountCop": "INVALID_AMOUNT",
  "json:amount": "INVALID_AMOUNT",
  "json:sourceAddress": "INVALID_SOURCE_ADDRESS",
  "json:destinationAddress": "INVALID_DESTINATION_ADDRESS",
  "header:idempotency-key": "INVALID_IDEMPOTENCY_KEY",
};

/** When several fields fail, the error's code is the first of these present; every field is listed. */
const CODE_PRECEDENCE: ErrorCode[] = [
  "INVALID_IDEMPOTENCY_KEY",
  "INVALID_AMOUNT",
  "BELOW_MINIMUM",
  "ABOVE_MAXIMUM",
  "INVALID_SOURCE_ADDRESS",
  "INVALID_DESTINATION_ADDRESS",
  "INVALID_EMAIL",
  "INVALID_USER_ADDRESS",
  "INVALID_WALLET_ADDRESS",
  "UNSUPPORTED_PAIR",
];

const TARGET_NAMES: Record<string, string> = {
  json: "body",
  header: "header",
  param: "path",
  query: "query",
};

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
  /** A schema's custom check may name the error code it stands for (see issueCode). */
  params?: Record<string, unknown>;
}

/** For a schema's custom check: the params that make its failure answer with `code`. */
export function issueCode(code: ErrorCode): { code: ErrorCode } {
  return { code };
}

export function validationError(target: string, issues: readonly Issue[]): ApiError {
  const problems: Problem[] = issues.flatMap((issue) => problemsOf(target, issue));
  const codes = new Set(problems.map((p) => p.code));
  const code = CODE_PRECEDENCE.find((candidate) => codes.has(candidate)) ?? "INVALID_REQUEST";
  return new ApiError(code, { problems });
}

function problemsOf(target: string, issue: Issue): Problem[] {
  const where = TARGET_NAMES[target] ?? target;
  if (issue.code === "unrecognized_keys" && issue.keys) {
    return issue.keys.map((key) => ({
      field: [where, ...issue.path.map(String), key].join("."),
      code: "INVALID_REQUEST" as const,
      problem: "is not a known field",
    }));
  }
  const path = issue.path.map(String);
  const own = issue.params?.code as ErrorCode | undefined;
  const code = own ?? FIELD_CODES[`${target}:${path.join(".")}`] ?? "INVALID_REQUEST";
  return [{ field: [where, ...path].join("."), code, problem: issue.message }];
}

/** Every route's validation failure becomes one error listing every failing field. */
// biome-ignore lint/suspicious/noExplicitAny: one hook serves every route's inputs and paths
export const validationHook: Hook<any, AppEnv, any, any> = (result) => {
  if (!result.success) throw validationError(result.target, result.error.issues);
};
