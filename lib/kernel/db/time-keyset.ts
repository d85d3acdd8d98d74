import { and, type Column, eq, lt, or, type SQL } from "drizzle-orm";
import { base64url } from "jose";
import { ApiError } from "../errors/api-error";

/**
 * Newest-first paging by (time, id): the cursor names the last row's time and id, opaque to the
 * caller, so a page costs its own rows however deep (an offset would read every row before it).
 */
export function timeKeysetCursor(row: { at: Date; id: string }): string {
  return base64url.encode(JSON.stringify({ at: row.at.toISOString(), id: row.id }));
}

/** Rows older than the cursor's: the next page's condition. A cursor no list gave is 400 naming `query.cursor`. */
export function olderThanCursor(columns: { at: Column; id: Column }, cursor: string): SQL | undefined {
  const position = positionOf(cursor);
  return or(lt(columns.at, position.at), and(eq(columns.at, position.at), lt(columns.id, position.id)));
}

function positionOf(cursor: string): { at: Date; id: string } {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(base64url.decode(cursor))) as {
      at?: unknown;
      id?: unknown;
    };
    const at = typeof parsed.at === "string" ? new Date(parsed.at) : undefined;
    if (at && !Number.isNaN(at.getTime()) && typeof parsed.id === "string" && parsed.id.length <= 128) {
      return { at, id: parsed.id };
    }
  } catch {
    // Refused below, as any cursor that is not one of ours.
  }
  throw new ApiError("INVALID_REQUEST", {
    problems: [{ field: "query.cursor", code: "INVALID_REQUEST", problem: "is not a cursor this list gave" }],
  });
}
