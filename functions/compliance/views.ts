import { z } from "@hono/zod-openapi";
import type { DeniedAddress } from "../../lib/compliance";
import { operatorReason } from "../../lib/http/request-fields";
import { EVM_ADDRESS_RULE, parseEvmAddress } from "../../lib/kernel/chain/address";

/** How the admin API shows a deny-list entry: the listing and, once lifted, who lifted it and why. */
export const deniedAddressSchema = z
  .object({
    id: z.string().openapi({ example: "dny_01KAZ6XQ4R0000000000000000" }),
    address: z.string().openapi({ description: "Lower-cased." }),
    reason: z.string(),
    addedBy: z.string(),
    addedFromIp: z.string().nullable(),
    addedAt: z.string().datetime(),
    removedAt: z.string().datetime().nullable(),
    removedBy: z.string().nullable(),
    removedFromIp: z.string().nullable(),
    removalReason: z.string().nullable(),
  })
  .openapi("DeniedAddress");

export const evmAddressSchema = z
  .string()
  .refine((value) => parseEvmAddress(value) !== undefined, EVM_ADDRESS_RULE)
  .openapi({ example: "0x90F79bf6EB2c4f870365E785982E1f101E93b906" });

/** Why a listing changes: kept with it, for the compliance officer who reads the list's history. */
export const reasonSchema = operatorReason("Why, in a few words (a case number, a list's name).");

export function deniedAddressView(row: DeniedAddress): z.infer<typeof deniedAddressSchema> {
  return {
    ...row,
    addedAt: row.addedAt.toISOString(),
    removedAt: row.removedAt?.toISOString() ?? null,
  };
}
