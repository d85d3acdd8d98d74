import type pg from "pg";

/** Column metadata in the shape and key order Neon's `/sql` endpoint sends. */
interface NeonFieldJson {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: "text";
}

type TextValue = string | null;

export interface NeonQueryResultJson {
  rowAsArray: boolean;
  fields: NeonFieldJson[];
  rows: TextValue[][] | Record<string, TextValue>[];
  command: string;
  rowCount: number | null;
}

export function toNeonQueryResultJson(
  result: pg.QueryArrayResult<TextValue[]>,
  arrayMode: boolean,
): NeonQueryResultJson {
  const fields = result.fields.map(
    (field): NeonFieldJson => ({
      name: field.name,
      dataTypeID: field.dataTypeID,
      tableID: field.tableID,
      columnID: field.columnID,
      dataTypeSize: field.dataTypeSize,
      dataTypeModifier: field.dataTypeModifier,
      format: "text",
    }),
  );
  const rows = arrayMode
    ? result.rows
    : result.rows.map((row) => Object.fromEntries(row.map((value, i) => [fields[i]?.name ?? "", value])));
  return {
    rowAsArray: arrayMode,
    fields,
    rows,
    // pg, like Neon, reports the first word of the command tag and the trailing row count.
    command: result.command ?? "",
    rowCount: result.rowCount ?? null,
  };
}
