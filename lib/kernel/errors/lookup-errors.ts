import type { ErrorDefinition } from "./definition";

/** What is not there, or not this caller's (404, 405), with the refusals that sit beside their lookups (a signature that does not verify, an order that cannot be returned). Part of the one error table (registry.ts). */
export const LOOKUP_ERRORS = {
  QUOTE_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "CREATE_NEW_QUOTE",
    message: { es: "No se encontró la cotización.", en: "The quote was not found." },
  },
  TRANSACTION_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "Ninguna orden, pago ni swap de tu organización tiene esa transacción.",
      en: "No order, payout or swap of your organization has that transaction.",
    },
  },
  ORDER_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "No se encontró la orden.", en: "The order was not found." },
  },
  ORDER_NOT_HELD: {
    status: 409,
    retryable: false,
    nextAction: "CHECK_ORDER",
    message: {
      es: "La orden no está retenida: no hay retención que levantar.",
      en: "The order is not held: there is no hold to release.",
    },
  },
  ORDER_NOT_RETURNABLE: {
    status: 409,
    retryable: false,
    nextAction: "CHECK_ORDER",
    message: {
      es: "La orden no se puede devolver en su estado actual: solo una orden quemada que aún no cambió su USDm por COPm.",
      en: "The order cannot be returned in its current state: only a burned order that has not exchanged its USDm for COPm yet can be.",
    },
  },
  ROUTE_NOT_FAILED: {
    status: 409,
    retryable: false,
    nextAction: "CHECK_ORDER",
    message: {
      es: "La orden no tiene una ruta que el agregador reportara fallida: no hay reembolso que registrar.",
      en: "The order has no route the aggregator reported failed: there is no refund to book.",
    },
  },
  UNCLAIMED_MINT_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "No se encontró ningún mint a la cuenta de liquidación con ese id.",
      en: "No mint to the settlement account has that id.",
    },
  },
  MINT_NOT_RETURNABLE: {
    status: 409,
    retryable: false,
    nextAction: "CHECK_ORDER",
    message: {
      es: "El mint no se puede devolver: una orden lo reclama o aún puede reclamarlo, o su cadena de origen no es una que el servicio atiende.",
      en: "The mint cannot be returned: an order claims it or may still claim it, or its source chain is not one the service serves.",
    },
  },
  ORGANIZATION_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "No se encontró la organización.", en: "The organization was not found." },
  },
  INTEGRATION_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "No se encontró la integración.", en: "The integration was not found." },
  },
  WEBHOOK_ENDPOINT_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La integración no tiene un endpoint de webhooks. Configúralo con PUT /api/integrations/webhooks/endpoint.",
      en: "The integration has no webhook endpoint. Set one with PUT /api/integrations/webhooks/endpoint.",
    },
  },
  OTP_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "SEND_NEW_OTP",
    message: {
      es: "No hay un código pendiente para este correo y esta dirección. Solicita un código.",
      en: "No code is pending for this email and address. Request a code.",
    },
  },
  PAYOUT_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "No se encontró el pago.", en: "The payout was not found." },
  },
  PAYOUT_NOT_REFUNDABLE: {
    status: 409,
    retryable: false,
    nextAction: "CHECK_PAYOUT",
    message: {
      es: "El pago no se puede reembolsar: solo uno cuyo depósito el proveedor tiene sin pagar (refund_required o failed).",
      en: "The payout cannot be refunded: only one whose deposit the provider holds unpaid (refund_required or failed) can be.",
    },
  },
  SWAP_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "No se encontró el swap.", en: "The swap was not found." },
  },
  EVENT_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "No se encontró el evento.", en: "The event was not found." },
  },
  API_KEY_NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "No se encontró la clave de API.", en: "The API key was not found." },
  },
  CALLBACK_SIGNATURE_INVALID: {
    status: 401,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La firma del callback falta o no es válida.",
      en: "The callback's signature is missing or invalid.",
    },
  },
  JOB_SIGNATURE_INVALID: {
    status: 401,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "Falta la firma Upstash-Signature del trabajo o no es válida.",
      en: "The job delivery's Upstash-Signature is missing or invalid.",
    },
  },
  NOT_FOUND: {
    status: 404,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "La ruta no existe.", en: "No such route." },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "La ruta no admite este método.", en: "The route does not allow this method." },
  },
  destination_mismatch: {
    status: 409,
    retryable: false,
    nextAction: "DO_NOT_SEND_FUNDS",
    message: {
      es: "La llave BRE-B no corresponde al titular indicado. No se creó el pago: pide al usuario que no envíe fondos y revise los datos.",
      en: "The BRE-B key does not match the named account owner. No payout was created: ask the user to send nothing and check the details.",
    },
  },
} as const satisfies Record<string, ErrorDefinition>;
