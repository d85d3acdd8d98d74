import type { RouteConfig, z } from "@hono/zod-openapi";

/**
 * The types an operation takes and answers, read off its route object, so a route file exports
 * them (and its callers and tests import them) without restating a schema.
 */
type JsonSchemaOf<Part> = Part extends { content: { "application/json": { schema: infer S } } } ? S : never;

/** The JSON body an operation takes, as a caller writes it (zod's input: defaults may be left out). */
export type RequestBody<R extends RouteConfig> = R["request"] extends { body?: infer B }
  ? JsonSchemaOf<NonNullable<B>> extends infer S extends z.ZodType
    ? z.input<S>
    : never
  : never;

/** The query an operation takes, as a caller writes it. */
export type RequestQuery<R extends RouteConfig> = R["request"] extends { query?: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;

/** The JSON body an operation answers with `status`. */
export type ResponseBody<R extends RouteConfig, Status extends keyof R["responses"]> =
  JsonSchemaOf<R["responses"][Status]> extends infer S extends z.ZodType ? z.output<S> : never;
