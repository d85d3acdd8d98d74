import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { settlementOrders, settlementQuotes } from "../../../schema";
import type { SettlementOrder } from "./order";

/**
 * An order as a list tells it (API-Version 2026-11-28 on): where it stands, what it sends and
 * promises, between which addresses and chains. The quote's fees and legs, the burn plan, the receipt
 * and the timeline are the read's.
 */
export interface OrderSummary {
  orderId: string;
  status: SettlementOrder["status"];
  health: SettlementOrder["health"];
  fundsStatus: SettlementOrder["fundsStatus"];
  reference: string | null;
  quoteId: string;
  sourceChain: string;
  sourceChainId: number;
  destinationChainId: number | null;
  sourceAddress: string;
  destinationAddress: string;
  sendAmountUsdc: string;
  totalDebitUsdc: string;
  expectedCopAmount: string;
  copAmountMin: string;
  burnTxHash: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Atomic units as a decimal string, as formatAmount writes them: exact (a product of numerics), no trailing zeros. */
const decimal = (column: AnyPgColumn, decimals: number) =>
  sql`trim_scale(${column} * ${sql.raw(`0.${"0".repeat(decimals - 1)}1`)})::text`;
/** An instant as Date's toISOString writes it. */
const iso = (column: AnyPgColumn) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Each summary's JSON text, built by Postgres from an order joined to its quote, in the fields'
 * order above: a page of a hundred is then a hundred strings for the service to join, not 1,800
 * values to decode, map and write again (a third of the list's CPU). The amounts' and instants'
 * text is the read's (formatAmount, toISOString): tests/settlement/orders.list.chains.test.ts
 * compares each summary with its order's read.
 */
export const orderSummaryJson: SQL<string> = sql<string>`json_build_object(
  'orderId', ${settlementOrders.id},
  'status', ${settlementOrders.status},
  'health', ${settlementOrders.health},
  'fundsStatus', ${settlementOrders.fundsStatus},
  'reference', ${settlementOrders.reference},
  'quoteId', ${settlementOrders.quoteId},
  'sourceChain', ${settlementOrders.execution}->>'chain',
  'sourceChainId', (${settlementOrders.execution}->>'chainId')::int,
  'destinationChainId', (${settlementQuotes.legs}->-1->>'chainId')::int,
  'sourceAddress', ${settlementQuotes.sourceAddress},
  'destinationAddress', ${settlementQuotes.destinationAddress},
  'sendAmountUsdc', ${decimal(settlementQuotes.sendAmountUsdc, 6)},
  'totalDebitUsdc', ${decimal(settlementQuotes.totalDebitUsdc, 6)},
  'expectedCopAmount', ${decimal(settlementQuotes.expectedCopm, 18)},
  'copAmountMin', ${decimal(settlementQuotes.copAmountMin, 18)},
  'burnTxHash', ${settlementOrders.burnTxHash},
  'createdAt', ${iso(settlementOrders.createdAt)},
  'updatedAt', ${iso(settlementOrders.updatedAt)}
)::text`;
