import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * A table's row as named parameters, for `insert into t (…) select <select> where <condition>`: a
 * write that holds only while a condition does, in one statement, built once as a prepared query.
 * `select` is every column's parameter in the table's order (the order drizzle writes the insert's
 * columns in), each cast to its column's type, since a SELECT's parameters are not typed by the
 * insert's columns as a VALUES' are; `values` maps a row to those parameters as drizzle sends them
 * (JSON text for jsonb, ISO text for timestamps; null as null).
 */
export function rowParameters<T extends PgTable>(table: T) {
  const columns = Object.entries(getTableColumns(table));
  const select: SQL = sql.join(
    columns.map(([key, column]) => sql`${sql.placeholder(key)}::${sql.raw(column.getSQLType())}`),
    sql`, `,
  );
  // The whole row: a column left out would be written null, not its default.
  const values = (row: T["$inferSelect"]): Record<string, unknown> => {
    const parameters: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = (row as Record<string, unknown>)[key];
      parameters[key] = value === null || value === undefined ? null : column.mapToDriverValue(value);
    }
    return parameters;
  };
  return { select, values };
}
