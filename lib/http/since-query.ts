import { z } from "@hono/zod-openapi";
import { isStorableInstant } from "../kernel/clock";

/**
 * An instant in a query: ISO 8601 with an offset, in years 1 to 9999. Year 0 and six-digit years
 * parse as dates but Postgres refuses them, which would be a 500 for a client's typo.
 */
export function instantQuery(description: string) {
  return (
    z
      .string()
      .datetime({ offset: true })
      // Not an instant at all is the datetime check's to name; one problem per field.
      .refine(
        (value) => Number.isNaN(Date.parse(value)) || isStorableInstant(new Date(value)),
        "must be an instant in the years 0001 to 9999",
      )
      .openapi({ description })
  );
}

/** The `since` of every listing. */
export function sinceQuery(description: string) {
  return instantQuery(description).optional();
}
