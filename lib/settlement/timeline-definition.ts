import { z } from "zod";
import type { EventType } from "../webhooks/event-types";
import type { FundsStatus, OrderStatus } from "./lifecycle";

/** What each timeline kind is made of (timeline.ts holds the table): the detail primitives and the shape of an entry kind. */

/** Atomic units, as decimal digits (JSON has no bigint). */
export const units = z.string().regex(/^\d+$/, "atomic units in decimal digits");
export const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, "0x-prefixed hex");
export const logIndex = z.number().int().nonnegative();
export const isoTime = z.iso.datetime();
export const reason = z.object({ reason: z.string() });
export const nothing = z.object({});
/** Who minted a CCTP message: the service's relay, Circle's forwarder, or someone else (`mintCaller`). */
export const minter = {
  mintedBy: z.enum(["service", "circle", "other"]).optional(),
  mintCaller: hex.optional(),
};

/** The legs of a settlement receipt (views/receipt.ts), as `ReceiptLeg.leg` names them. */
type SettlementReceiptLeg =
  | "burn"
  | "deposit"
  | "cctp_mint"
  | "route"
  | "route_refunded"
  | "conversion"
  | "exchange"
  | "service_fee"
  | "delivery"
  | "partner_fee"
  | "partner_fee_shortfall"
  | "return_route"
  | "return_route_refunded"
  | "return_burn"
  | "return_mint"
  | "return_on_destination"
  | "return_remainder";

export interface TimelineKindDefinition {
  detail: z.ZodType<Record<string, unknown>>;
  moves: { status: OrderStatus; fundsStatus: FundsStatus } | null;
  webhook: EventType | null;
  /** The receipt legs the entry opens, fills or closes (none: it moves no money). */
  receipt: readonly SettlementReceiptLeg[];
  publicReason: boolean;
  label: { es: string; en: string };
}
