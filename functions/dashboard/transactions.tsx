import type { Language } from "../../lib/kernel/errors/error-body";
import { DataTable } from "./data-table";
import { Hash } from "./format";

const TEXT = {
  es: { title: "Transacciones", step: "Paso", chain: "Cadena", hash: "Hash de la transacción" },
  en: { title: "Transactions", step: "Step", chain: "Chain", hash: "Transaction hash" },
} as const satisfies Record<Language, Record<string, string>>;

/** One on-chain transaction of a record: the step it stands for, its chain as people read it, its hash. */
export interface TransactionRow {
  step: string;
  chain: string;
  txHash: string | null;
}

/** A record's transactions, one row per step (one transaction may be two steps), or `none` said. */
export function TransactionsSection(props: {
  language: Language;
  id: string;
  none: string;
  rows: TransactionRow[];
}) {
  const t = TEXT[props.language];
  return (
    <section aria-labelledby={props.id} style="margin-bottom:1rem">
      <h2 id={props.id}>{t.title}</h2>
      {props.rows.length === 0 ? (
        <p>{props.none}</p>
      ) : (
        <DataTable
          labelledBy={props.id}
          rows={props.rows}
          columns={[
            { head: t.step, cell: (row) => row.step },
            { head: t.chain, cell: (row) => row.chain },
            { head: t.hash, cell: (row) => <Hash value={row.txHash} /> },
          ]}
        />
      )}
    </section>
  );
}
