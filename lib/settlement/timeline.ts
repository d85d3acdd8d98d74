import { z } from "zod";
import {
  hex,
  isoTime,
  logIndex,
  minter,
  nothing,
  reason,
  type TimelineKindDefinition,
  units,
} from "./timeline-definition";

/**
 * Every kind of entry an order's timeline holds, in one table (as the error registry is for codes):
 * the figures its `detail` records (typed where it is written, parsed where it is read), the move it makes
 * (the status and funds status it puts the order in; none for a note that leaves the order where it
 * is), the webhook event it sends when it changes the order's status, the receipt leg it feeds, its
 * label in Spanish and English, and whether its `reason` is a provider's published code partners may
 * read. Adding a kind fails to compile until each of those is given, and docs/timeline.md is made
 * from this table (`npm run docs`). A detail requires only the figures its readers need (amounts);
 * every other field is optional, because entries written by earlier versions lack the fields added
 * since, and an entry that does not parse loses its receipt leg.
 */
export const TIMELINE = {
  ORDER_CREATED: {
    detail: nothing,
    moves: { status: "CREATED", fundsStatus: "IN_USER_WALLET" },
    webhook: null,
    receipt: [],
    publicReason: false,
    label: { es: "Orden creada", en: "Order created" },
  },
  BURN_VERIFIED: {
    detail: z.object({
      amount: units,
      maxFee: units,
      blockNumber: units.optional(),
      logIndex: logIndex.optional(),
      /** The burn's block time (entries from before it was recorded lack it: the block says). */
      burnedAt: isoTime.optional(),
    }),
    moves: { status: "BURNED", fundsStatus: "BURNED_ON_SOURCE" },
    webhook: "settlement.order.burned",
    receipt: ["burn"],
    publicReason: false,
    label: { es: "Quema de USDC verificada", en: "USDC burn verified" },
  },
  DEPOSIT_VERIFIED: {
    // USDC already on the intermediate chain: the user's transfer to the settlement account, with the
    // order's commitment, verified (no CCTP; the order starts at MINTED).
    detail: z.object({
      amount: units,
      blockNumber: units.optional(),
      logIndex: logIndex.optional(),
      depositedAt: isoTime.optional(),
    }),
    moves: { status: "MINTED", fundsStatus: "USDC_ON_INTERMEDIATE" },
    webhook: "settlement.order.minted",
    receipt: ["deposit"],
    publicReason: false,
    label: { es: "Depósito de USDC verificado", en: "USDC deposit verified" },
  },
  ATTESTATION_REQUESTED: {
    detail: nothing,
    moves: { status: "BURNED", fundsStatus: "AWAITING_ATTESTATION" },
    webhook: null,
    receipt: [],
    publicReason: false,
    label: { es: "Atestación solicitada a Circle", en: "Circle attestation requested" },
  },
  ATTESTATION_DELAYED: {
    detail: reason,
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: true,
    label: { es: "Atestación de Circle demorada", en: "Circle attestation delayed" },
  },
  ATTESTED: {
    detail: z.object({
      eventNonce: hex.optional(),
      message: hex.optional(),
      attestation: hex.optional(),
      forwardTxHash: hex.optional(),
      feeExecuted: units.optional(),
    }),
    moves: { status: "ATTESTED", fundsStatus: "AWAITING_ATTESTATION" },
    webhook: "settlement.order.attested",
    receipt: [],
    publicReason: false,
    label: { es: "Atestación de Circle completa", en: "Circle attestation complete" },
  },
  FORWARDED_MINT: {
    detail: z.object({
      amount: units,
      feeCollected: units,
      /** What the burn allowed Circle and it did not take: it stays with the order. */
      feeUnusedUsdc: units.optional(),
      ...minter,
    }),
    moves: { status: "MINTED", fundsStatus: "USDC_ON_INTERMEDIATE" },
    webhook: "settlement.order.minted",
    receipt: ["cctp_mint"],
    publicReason: false,
    label: { es: "USDC acuñados en la cadena intermedia", en: "USDC minted on the intermediate chain" },
  },
  FORWARD_FAILED: {
    // Circle's Forwarding Service did not mint (Iris's forwardState FAILED) or has not by the leg's
    // deadline: the service relays the attested message itself (MINT_RELAYED).
    detail: z.object({ reason: z.enum(["forward_failed", "forward_overdue"]), purpose: z.string() }),
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: false,
    label: { es: "El reenvío de Circle falló", en: "Circle's forward failed" },
  },
  MINT_RELAYED: {
    // The service's own receiveMessage of Circle's attested message was mined; the mint it made is
    // then read by its nonce (FORWARDED_MINT, or RETURNED for a return, with mintedBy "service").
    detail: z.object({ purpose: z.string(), relayTxHash: hex }),
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: false,
    label: {
      es: "El servicio retransmitió el mensaje de Circle",
      en: "The service relayed Circle's message",
    },
  },
  ROUTE_SENT: {
    detail: nothing,
    moves: { status: "ROUTING", fundsStatus: "IN_TRANSIT_TO_DESTINATION" },
    webhook: "settlement.order.routing",
    receipt: ["route"],
    publicReason: false,
    label: { es: "Ruta enviada al agregador", en: "Route sent to the aggregator" },
  },
  ROUTE_COMPLETED: {
    detail: z.object({
      receivedUsdm: units,
      logIndex: logIndex.optional(),
      /** What the aggregator said arrived, when the Transfer on chain differs. */
      reportedAmount: units.optional(),
      /** The route brought USDC instead, converted to USDm through Mento. */
      partial: z
        .object({
          token: hex,
          // The stablecoin that arrived instead of USDm (entries before USDT was handled were USDC).
          symbol: z.enum(["USDC", "USDT"]).optional(),
          amount: units,
          conversionTxHash: hex,
        })
        .optional(),
    }),
    moves: { status: "ROUTED", fundsStatus: "USDM_ON_DESTINATION" },
    webhook: "settlement.order.routed",
    receipt: ["route", "conversion"],
    publicReason: false,
    label: { es: "Ruta completada", en: "Route completed" },
  },
  ROUTE_FAILED: {
    // The aggregator's word on a route it could not deliver (LI.FI FAILED or INVALID), before any
    // refund is read: the order waits for the refund, STUCK past its ROUTING deadline.
    detail: z.object({ substatus: z.string(), routeTxHash: hex }),
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: false,
    label: { es: "El agregador reporta la ruta fallida", en: "The aggregator reports the route failed" },
  },
  ROUTE_PARTIAL: {
    // The aggregator delivered another token than USDm (LI.FI DONE/PARTIAL, or a completion in
    // another token), read from its receiving transaction: USDC or USDT the service converts
    // through Mento (CONVERTED); any other token (no symbol) goes back to USDC through the
    // aggregator and the route counts as refunded (ROUTE_REFUNDED, `PARTIAL_UNWOUND`).
    detail: z.object({
      token: hex,
      symbol: z.enum(["USDC", "USDT"]).optional(),
      amount: units,
      receivingTxHash: hex,
      // The Transfer claimed (the entry's txHash is the receiving transaction), and for which route:
      // no other order, and no later route of this one, can spend it (entries before had neither).
      logIndex: logIndex.optional(),
      routeTxHash: hex.optional(),
    }),
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: false,
    label: {
      es: "El agregador entregó otro token",
      en: "The aggregator delivered another token",
    },
  },
  CONVERTED: {
    // The settlement account's Mento swap of the partial delivery into USDm, read back.
    detail: z.object({ amountIn: units, usdmOut: units, conversionTxHash: hex }),
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: false,
    label: { es: "Convertido a USDm en Mento", en: "Converted to USDm on Mento" },
  },
  ROUTE_REFUNDED: {
    detail: z.object({
      amount: units,
      logIndex: logIndex.optional(),
      substatus: z.string().optional(),
      // A delivery in a token Mento does not trade, routed back to USDC: that way back's transaction.
      unwindTxHash: hex.optional(),
    }),
    moves: { status: "MINTED", fundsStatus: "USDC_ON_INTERMEDIATE" },
    webhook: "settlement.order.minted",
    receipt: ["route_refunded"],
    publicReason: false,
    label: { es: "Ruta reembolsada por el agregador", en: "Route refunded by the aggregator" },
  },
  EXCHANGE_DELAYED: {
    detail: reason,
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: true,
    label: { es: "Cambio en Mento demorado", en: "Mento exchange delayed" },
  },
  EXCHANGE_HALTED: {
    // Mento's circuit breaker halts the pool (its BreakerBox's trading mode is not 0): the order
    // waits for the reset, STUCK past its ROUTED deadline; the exchange then holds the floor as always.
    detail: reason,
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: true,
    label: {
      es: "Mento detuvo el intercambio (cortacircuitos)",
      en: "Mento halted the exchange (circuit breaker)",
    },
  },
  EXCHANGED: {
    detail: z.object({ usdmIn: units, copmOut: units }),
    moves: { status: "ROUTED", fundsStatus: "COPM_ON_DESTINATION" },
    webhook: null,
    receipt: ["exchange", "service_fee"],
    publicReason: false,
    label: { es: "Cambio USDm → COPm en Mento", en: "USDm → COPm exchange on Mento" },
  },
  DELIVERED: {
    detail: z.object({
      copm: units,
      to: hex.optional(),
      // What was paid (`amount`, in `txHash`; none when the order held nothing to pay it with), and
      // what was owed when the order held less (a refund at a loss): the rest is a shortfall.
      partnerFee: z
        .object({
          amount: units,
          to: hex,
          chainId: z.number().int(),
          txHash: hex.optional(),
          owed: units.optional(),
        })
        .optional(),
      // The service's fee it could keep, when the order held less than both fees: the service bears
      // a loss before the partner does.
      serviceFeeKept: units.optional(),
    }),
    moves: { status: "DELIVERED", fundsStatus: "DELIVERED_TO_DESTINATION" },
    webhook: "settlement.order.delivered",
    receipt: ["delivery", "partner_fee", "partner_fee_shortfall"],
    publicReason: false,
    label: { es: "COPm entregados", en: "COPm delivered" },
  },
  STUCK: {
    detail: reason,
    moves: null,
    webhook: "settlement.order.stuck",
    receipt: [],
    publicReason: false,
    label: { es: "Orden detenida", en: "Order stuck" },
  },
  HELD: {
    // A party of the order became listed after it was screened (docs/compliance.md, "Held orders"):
    // the service pays nothing more until the operator releases or returns it.
    detail: z.object({ reason: z.literal("sanctions_listed"), fields: z.array(z.string()) }),
    moves: null,
    webhook: "settlement.order.stuck",
    receipt: [],
    publicReason: false,
    label: { es: "Orden retenida por cumplimiento", en: "Order held for compliance" },
  },
  HOLD_RELEASED: {
    detail: z.object({ reason: z.string(), by: z.literal("operator") }),
    moves: null,
    webhook: "settlement.order.recovered",
    receipt: [],
    publicReason: false,
    label: { es: "Retención levantada", en: "Hold released" },
  },
  PAYMENT_RESIGNED: {
    detail: z.object({
      purpose: z.string(),
      nonce: z.number().int().nonnegative(),
      droppedHashes: z.array(hex),
      reason: z.string(),
    }),
    moves: null,
    webhook: null,
    receipt: [],
    publicReason: false,
    label: { es: "Pago firmado de nuevo", en: "Payment signed again" },
  },
  RETURN_REQUESTED: {
    detail: z.object({ reason: z.string(), by: z.string() }),
    moves: null,
    webhook: null,
    receipt: [],
    publicReason: false,
    label: { es: "Devolución solicitada", en: "Return requested" },
  },
  RETURN_ROUTE_SENT: {
    detail: z.object({ usdm: units }),
    moves: { status: "RETURNING", fundsStatus: "RETURNING_TO_INTERMEDIATE" },
    webhook: "settlement.order.returning",
    receipt: ["return_route"],
    publicReason: false,
    label: { es: "Ruta de regreso enviada", en: "Route back sent" },
  },
  RETURN_ROUTE_COMPLETED: {
    detail: z.object({ receivedUsdc: units, logIndex: logIndex.optional() }),
    moves: { status: "RETURNING", fundsStatus: "USDC_ON_INTERMEDIATE" },
    webhook: null,
    receipt: ["return_route"],
    publicReason: false,
    label: { es: "Ruta de regreso completada", en: "Route back completed" },
  },
  RETURN_ROUTE_REFUNDED: {
    detail: z.object({ amount: units, logIndex: logIndex.optional(), substatus: z.string().optional() }),
    moves: { status: "ROUTED", fundsStatus: "USDM_ON_DESTINATION" },
    webhook: "settlement.order.routed",
    receipt: ["return_route_refunded"],
    publicReason: false,
    label: { es: "Ruta de regreso reembolsada", en: "Route back refunded" },
  },
  RETURN_REDIRECTED: {
    // The operator names where a return's USDm goes on the destination chain, when every way back
    // was refunded and the user's source address is a contract there (docs/settlement.md, "Returns").
    detail: z.object({ to: hex, reason: z.string(), by: z.literal("operator") }),
    moves: null,
    webhook: "settlement.order.incident",
    receipt: [],
    publicReason: false,
    label: {
      es: "Destino de la devolución indicado por el operador",
      en: "Return address named by the operator",
    },
  },
  RETURNED_ON_DESTINATION: {
    // The way back was refunded every time: the USDm went to the user's own address on the
    // destination chain (a plain account there, or the address the operator named), read back.
    detail: z.object({
      amount: units,
      to: hex,
      logIndex: logIndex.optional(),
      // What the order still held on the intermediate chain, sent to the same address there.
      usdc: z.object({ amount: units, txHash: hex, chainId: z.number().int() }).optional(),
    }),
    moves: { status: "RETURNED", fundsStatus: "RETURNED_ON_DESTINATION" },
    webhook: "settlement.order.returned",
    receipt: ["return_on_destination", "return_remainder"],
    publicReason: false,
    label: { es: "USDm devueltos en la cadena de destino", en: "USDm returned on the destination chain" },
  },
  RETURN_BURNED: {
    detail: z.object({ amount: units, maxFee: units, burnedAt: isoTime.optional() }),
    moves: { status: "RETURNING", fundsStatus: "RETURNING_TO_SOURCE" },
    webhook: "settlement.order.returning",
    receipt: ["return_burn"],
    publicReason: false,
    label: { es: "USDC quemados de regreso al origen", en: "USDC burned back to the source chain" },
  },
  RETURNED: {
    detail: z.object({ amount: units, feeCollected: units, to: hex.optional(), ...minter }),
    moves: { status: "RETURNED", fundsStatus: "RETURNED_TO_SOURCE" },
    webhook: "settlement.order.returned",
    receipt: ["return_mint"],
    publicReason: false,
    label: { es: "USDC devueltos al origen", en: "USDC returned to the source address" },
  },
  CHAIN_RESET: {
    detail: reason,
    moves: null,
    webhook: "settlement.order.stuck",
    receipt: [],
    publicReason: false,
    label: { es: "Cadenas locales reiniciadas", en: "Local chains reset" },
  },
} as const satisfies Record<string, TimelineKindDefinition>;

export type TimelineKind = keyof typeof TIMELINE;
export const TIMELINE_KINDS = Object.keys(TIMELINE) as [TimelineKind, ...TimelineKind[]];
