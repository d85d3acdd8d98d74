import { z } from "@hono/zod-openapi";

/** Fields several operations take, declared once so they refuse the same input with the same words. */

/** A transaction hash: 0x and 64 hexadecimal characters. */
export const txHashField = (example: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a transaction hash: 0x and 64 hexadecimal characters")
    .openapi({ example });

/** The operator's reason for an admin action, kept for the record (1 to 500 characters). */
export const operatorReason = (description: string) =>
  z.string().trim().min(1).max(500).openapi({ description });
