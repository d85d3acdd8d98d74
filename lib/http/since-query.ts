import { z } from "@hono/zod-openapi";
import { isStorableInstant } from "../kernel/clock";

/**
 * The `since` of every listing: an ISO 8601 instant with an offset, in years 1 to 9999. Year 0 and
 * six-digit years parse as dates but Postgres refuses them, which would be a 500 for a client's typo.
 */
export function sinceQuery(description: string) {
  return (
    z
      .string()
      .datetime({ offset: true })
      // Not an instant at all is the datetime check's to name; one problem per field.
      .refine(
        (value) => Number.isNaN(Date.parse(value)) || isStorableInstant(new Date(value)),
        "must be an instant in the years 0001 to 9999",
      )
      .optional()
      .openapi({ description })
  );
}
