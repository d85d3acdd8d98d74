import type pg from "pg";
import { type NeonQueryResultJson, toNeonQueryResultJson } from "./query-result-json";
import type { IsolationLevel, QueryData, SqlRequestHeaders, TransactionOptions } from "./sql-request";

type TextRow = (string | null)[];

/**
 * `queryMode` is honoured by pg 8 but missing from @types/pg. Extended protocol even without
 * parameters matches Neon, which prepares every statement and so refuses several in one query.
 */
interface ExtendedArrayQuery extends pg.QueryArrayConfig<TextRow> {
  queryMode: "extended";
}

const ISOLATION_SQL: Record<IsolationLevel, string> = {
  ReadUncommitted: "READ UNCOMMITTED",
  ReadCommitted: "READ COMMITTED",
  RepeatableRead: "REPEATABLE READ",
  Serializable: "SERIALIZABLE",
};

function startTransactionSql({ isolationLevel, readOnly, deferrable }: TransactionOptions): string {
  const modes: string[] = [];
  if (isolationLevel !== undefined) modes.push(`ISOLATION LEVEL ${ISOLATION_SQL[isolationLevel]}`);
  if (readOnly) modes.push("READ ONLY");
  if (deferrable) modes.push("DEFERRABLE");
  return `START TRANSACTION ${modes.join(", ")}`.trim();
}

async function runQuery(
  client: pg.PoolClient,
  data: QueryData,
  defaultArrayMode: boolean,
): Promise<NeonQueryResultJson> {
  const config: ExtendedArrayQuery = {
    text: data.query,
    values: data.params,
    rowMode: "array",
    queryMode: "extended",
  };
  const result = await client.query<TextRow>(config);
  return toNeonQueryResultJson(result, data.arrayMode ?? defaultArrayMode);
}

/**
 * A connection goes back to the pool only if it is idle outside any transaction, so no request
 * ever inherits another's open transaction (e.g. a lone `BEGIN` sent over HTTP).
 */
function isReusable(client: pg.PoolClient): boolean {
  return client.getTransactionStatus() === "I";
}

export async function runSingleQuery(
  pool: pg.Pool,
  data: QueryData,
  headers: SqlRequestHeaders,
): Promise<NeonQueryResultJson> {
  const client = await pool.connect();
  let reusable = false;
  try {
    const result = await runQuery(client, data, headers.defaultArrayMode);
    reusable = isReusable(client);
    return result;
  } finally {
    client.release(!reusable);
  }
}

/** All queries in one transaction: every result on commit, nothing at all on any error. */
export async function runBatch(
  pool: pg.Pool,
  queries: QueryData[],
  headers: SqlRequestHeaders,
): Promise<{ results: NeonQueryResultJson[] }> {
  const client = await pool.connect();
  let reusable = false;
  try {
    await client.query(startTransactionSql(headers.transaction));
    try {
      const results: NeonQueryResultJson[] = [];
      for (const query of queries) results.push(await runQuery(client, query, headers.defaultArrayMode));
      await client.query("COMMIT");
      reusable = isReusable(client);
      return { results };
    } catch (error) {
      await client.query("ROLLBACK").then(
        () => {
          reusable = isReusable(client);
        },
        () => {},
      );
      throw error;
    }
  } finally {
    client.release(!reusable);
  }
}
