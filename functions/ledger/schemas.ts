import { z } from "@hono/zod-openapi";
import { instantQuery } from "../../lib/http/since-query";
import { TOKEN_SYMBOLS, type TokenSymbol } from "../../lib/kernel/money";
import {
  decodeStatementCursor,
  STATEMENT_DEFAULT_LIMIT,
  STATEMENT_MAX_DAYS,
  STATEMENT_PAGE_LIMIT,
} from "../../lib/ledger/statement-views";

const atomic = (description: string) =>
  z.string().openapi({ description: `${description} In the token's atomic units, as a decimal string.` });

const counterparty = z.enum(["user", "circle", "aggregator", "mento", "service", "provider", "partner"]);
const feeType = z.enum(["circle", "aggregator", "service", "provider", "partner"]);
const token = z.enum(TOKEN_SYMBOLS as [TokenSymbol, ...TokenSymbol[]]);
/** A leg's tokens: the chains' tokens, and the pesos a payout's provider pays off chain. */
const legToken = z.enum(["COP", ...TOKEN_SYMBOLS]);

const feeSchema = z.object({ type: feeType, token, amount: atomic("The fee.") });

const movementSchema = z
  .object({
    at: z
      .string()
      .datetime()
      .openapi({ description: "When it happened: its leg's time, or later (a route's output arriving)." }),
    token,
    chainId: z.number().int(),
    amount: atomic("Positive: money came into the record's funds; negative: it left them."),
    counterparty,
  })
  .openapi("Movement");

export const receiptSchema = z
  .object({
    legs: z.array(
      z.object({
        leg: z.string().openapi({
          description:
            "What the leg is (docs/ledger.md lists them): `burn`, `cctp_mint`, `route`, `route_refunded`, `conversion`, `exchange`, `service_fee`, `delivery`, `partner_fee`, `return_route`, `return_route_refunded`, `return_burn`, `return_mint`; on payouts `deposit`, `provider_payout`, `refund`, `fee_return`; on swaps `swap`.",
        }),
        at: z.string().datetime(),
        chainId: z.number().int(),
        txHash: z
          .string()
          .nullable()
          .openapi({ description: "The leg's transaction; null for a fee kept without one." }),
        tokenIn: legToken,
        amountIn: atomic("What went into the leg."),
        tokenOut: legToken,
        amountOut: atomic("What came out of it (0 while a route is in flight)."),
        fees: z.array(feeSchema),
        movements: z.array(movementSchema),
        relatedTxHashes: z.array(
          z.object({ chainId: z.number().int(), txHash: z.string(), role: z.string() }),
        ),
      }),
    ),
    fees: z
      .array(feeSchema)
      .openapi({ description: "Every fee of the record, summed by who took it and token." }),
    residue: z
      .array(z.object({ token, chainId: z.number().int(), amount: atomic("What the record still holds.") }))
      .openapi({
        description:
          "The sum of the legs' movements per token and chain: what the record still holds (for a settlement, what Circle did not take of the upfront fee). Empty when nothing is held.",
      }),
    rates: z.array(
      z.object({
        of: z.string(),
        quoted: z.string(),
        achieved: z
          .string()
          .nullable()
          .openapi({ description: "Null until the leg that gives it has happened." }),
      }),
    ),
  })
  .openapi("Receipt", {
    description:
      "The record's money, leg by leg, as the chains show it: every figure recomputable from the transaction it names (docs/ledger.md).",
  });

export const transactionLookupSchema = z
  .object({
    txHash: z.string().openapi({ description: "The hash asked for, in lower case." }),
    records: z
      .array(
        z.object({
          type: z.enum(["settlement_order", "payout", "swap"]),
          id: z.string().openapi({ description: "The order's, payout's or swap's id." }),
          legs: z
            .array(
              z.object({
                leg: z.string(),
                chainId: z.number().int(),
                role: z.string().openapi({
                  description: "`transaction` (the leg's own) or `arrival` (where a route's output arrived).",
                }),
              }),
            )
            .openapi({
              description:
                "The receipt's legs the transaction is; empty for a payment no leg shows (a replaced fee version, a relay).",
            }),
          payment: z.object({ purpose: z.string(), status: z.string() }).nullable().openapi({
            description: "For a settlement account's own payment: what it paid for and its status.",
          }),
        }),
      )
      .openapi({
        description:
          "Every record of the organization the transaction is part of, by type and id: one, or several when one transaction served several (a smart wallet's batch of payout deposits).",
      }),
  })
  .openapi("TransactionLookup");

const DAY_MS = 86_400_000;

export const statementQuery = z
  .object({
    from: instantQuery("The period's start (included): an ISO 8601 instant with an offset."),
    to: instantQuery("The period's end (excluded), after `from` and at most 366 days after it."),
    format: z.enum(["json", "csv"]).default("json").openapi({
      description: "`json`: a page of lines; `csv`: the whole period, streamed as it is read.",
    }),
    limit: z.coerce.number().int().min(1).max(STATEMENT_PAGE_LIMIT).default(STATEMENT_DEFAULT_LIMIT),
    cursor: z
      .string()
      .max(4096)
      .refine((value) => decodeStatementCursor(value) !== undefined, "a cursor, as nextCursor gives it")
      .optional(),
  })
  .superRefine((query, issues) => {
    const span = Date.parse(query.to) - Date.parse(query.from);
    if (Number.isNaN(span)) return;
    if (span <= 0) issues.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
    else if (span > STATEMENT_MAX_DAYS * DAY_MS)
      issues.addIssue({
        code: "custom",
        path: ["to"],
        message: `must be at most ${STATEMENT_MAX_DAYS} days after from`,
      });
  });

const totalSchema = z.object({
  token,
  chainId: z.number().int(),
  amount: atomic("The sum of the token's movements."),
});

export const statementSchema = z
  .object({
    from: z.string().datetime(),
    to: z.string().datetime(),
    openingTotals: z
      .array(totalSchema)
      .openapi({ description: "The running totals before this page's first line." }),
    lines: z.array(
      z.object({
        at: z.string().datetime(),
        type: z.enum(["settlement_order", "payout", "swap"]),
        id: z.string(),
        leg: z.string(),
        txHash: z.string().nullable(),
        token,
        chainId: z.number().int(),
        amount: atomic("Positive: into the record's funds; negative: out of them."),
        counterparty,
        runningTotal: atomic(
          "The sum of this token's movements on this chain from the period's start to this line.",
        ),
      }),
    ),
    closingTotals: z
      .array(totalSchema)
      .openapi({ description: "The running totals after this page's last line." }),
    nextCursor: z.string().nullable(),
  })
  .openapi("Statement");
