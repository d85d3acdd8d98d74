import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";

/** The shapes several variables share. */

/**
 * SETTLEMENT_LEG_DEADLINES: seconds an order may stay in each status before it is STUCK, over the
 * settlement area's defaults (lib/settlement/legs/deadlines.ts).
 */
export const legDeadlinesSchema = z
  .object({
    BURNED: z.number().int().positive(),
    ATTESTED: z.number().int().positive(),
    MINTED: z.number().int().positive(),
    ROUTING: z.number().int().positive(),
    ROUTED: z.number().int().positive(),
    RETURNING: z.number().int().positive(),
  })
  .partial()
  .strict();

export const optionalUrl = z.string().url().optional();

/** SOURCE_RPC_URLS: a JSON-RPC URL per source chain id, `{"1": "https://…", "10": "https://…"}`. */
export const sourceRpcUrlsSchema = z.record(z.string().regex(/^[1-9]\d*$/), z.string().url());

/**
 * A secp256k1 private key: 32 bytes of hex that are a valid scalar (not zero, below the curve's
 * order). A key that only looks right would otherwise throw where it is first used.
 */
export const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte hex private key")
  .refine((key) => accountOf(key) !== undefined, "is not a valid secp256k1 private key");

/** Private keys, comma-separated: each valid, none twice. */
export const privateKeyList = z
  .string()
  .transform((text) =>
    text
      .split(",")
      .map((key) => key.trim())
      .filter((key) => key !== ""),
  )
  .refine(
    (keys) => keys.every((key) => privateKey.safeParse(key).success),
    "must be 32-byte hex private keys, comma-separated",
  )
  .refine((keys) => new Set(keys.map((key) => key.toLowerCase())).size === keys.length, "names a key twice");

export function accountOf(key: string) {
  try {
    return privateKeyToAccount(key as `0x${string}`);
  } catch {
    return undefined;
  }
}

export function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
