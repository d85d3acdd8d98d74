import type { RouteConfig } from "@hono/zod-openapi";
import { expect } from "vitest";
import { type ErrorResponseBody, errorBodySchema } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";

/**
 * An answer's body, read with its own route's schema for the status the test expects: the test gets
 * the route's exported type without restating it, and a body the route does not declare fails here.
 */
export async function bodyOf<R extends RouteConfig, S extends keyof R["responses"] & number>(
  res: Response,
  route: R,
  status: S,
): Promise<ResponseBody<R, S>> {
  const json: unknown = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(status);
  const declared = route.responses[status];
  const media = declared && "content" in declared ? declared.content?.["application/json"] : undefined;
  const schema = media && "schema" in media ? media.schema : undefined;
  if (!schema || !("parse" in schema))
    throw new Error(`${route.method} ${route.path} declares no JSON body for ${status}`);
  return schema.parse(json) as ResponseBody<R, S>;
}

/** A refusal as a test reads it: the error's fields, its status and headers, and the whole body. */
export type Refusal = ErrorResponseBody["error"] & {
  status: number;
  headers: Headers;
  body: ErrorResponseBody;
};

/**
 * An error answer read with the one error schema every operation answers with (a body that is not
 * that envelope fails here), optionally checking its status.
 */
export async function errorOf(res: Response, status?: number): Promise<Refusal> {
  const json: unknown = await res.json();
  if (status !== undefined) expect(res.status, JSON.stringify(json)).toBe(status);
  const body = errorBodySchema.parse(json);
  return { ...body.error, status: res.status, headers: res.headers, body };
}
