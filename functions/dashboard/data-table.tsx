import type { Child } from "hono/jsx";

/**
 * One column of a table: its header and its cell for a row. `num` right-aligns a figure (header and
 * cells, so they line up); `mono` sets an id or key in monospace (cells only: the header is prose);
 * `name` makes the cell the row's header, wrapping a long name a person typed rather than widening
 * the table.
 */
export interface Column<Row> {
  head: Child;
  kind?: "num" | "mono" | "name";
  cell(row: Row): Child;
}

/**
 * A table in its own horizontal scroller (`.table-wrap`), so a wide one scrolls inside its frame at
 * phone width and never the page. Named by a caption, or by the heading `labelledBy` points to.
 */
export function DataTable<Row>(props: {
  caption?: string;
  labelledBy?: string;
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  /** The `data-*` attributes a row carries, for the page's script and the tests to find it. */
  rowAttributes?: (row: Row) => Record<string, string>;
}) {
  return (
    <div class="table-wrap">
      <table aria-labelledby={props.labelledBy}>
        {props.caption ? <caption>{props.caption}</caption> : null}
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" class={column.kind === "num" ? "num" : undefined}>
                {column.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr {...props.rowAttributes?.(row)}>
              {props.columns.map((column) => (
                <Cell kind={column.kind}>{column.cell(row)}</Cell>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Cell(props: { kind: Column<unknown>["kind"]; children?: Child }) {
  if (props.kind === "name") {
    return (
      <th scope="row" style="white-space:normal;overflow-wrap:anywhere;min-width:8rem">
        {props.children}
      </th>
    );
  }
  return <td class={props.kind}>{props.children}</td>;
}
