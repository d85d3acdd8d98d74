import type { ErrorDefinition } from "./definition";

/** Conflicts with the state of what the request names (409): expired, already used, pending, or not possible now. Part of the one error table (registry.ts). */
export const STATE_ERRORS = {
  DEPOSIT_PENDING_CONFIRMATIONS: {
    status: 409,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY",
    message: {
      es: "El depósito aún no tiene las confirmaciones requeridas. Reintenta en unos segundos.",
      en: "The deposit does not have its confirmations yet. Retry in a few seconds.",
    },
  },
  TX_ALREADY_USED: {
    status: 409,
    retryable: false,
    nextAction: "CHECK_PAYOUT",
    message: {
      es: "La transacción ya confirmó otro pago u otro swap.",
      en: "The transaction already confirmed another payout or swap.",
    },
  },
  PAYOUT_EXPIRED: {
    status: 409,
    retryable: false,
    nextAction: "CONTACT_SUPPORT",
    message: {
      es: "El depósito llegó después del plazo del pago. El pago queda pendiente de reembolso por el operador.",
      en: "The deposit arrived after the payout's deadline. The payout awaits a refund by the operator.",
    },
  },
  SWAP_EXPIRED: {
    status: 409,
    retryable: false,
    nextAction: "PREPARE_NEW_SWAP",
    message: {
      es: "El swap preparado venció antes de que la transacción se minara; no se registra. Prepara un swap nuevo.",
      en: "The prepared swap expired before the transaction was mined; it is not recorded. Prepare a new swap.",
    },
  },
  SWAP_PENDING_CONFIRMATIONS: {
    status: 409,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY",
    message: {
      es: "La transacción del swap aún no tiene las confirmaciones requeridas. Reintenta en unos segundos.",
      en: "The swap's transaction does not have its confirmations yet. Retry in a few seconds.",
    },
  },
  QUOTE_EXPIRED: {
    status: 409,
    retryable: true,
    nextAction: "CREATE_NEW_QUOTE",
    message: {
      es: "La cotización expiró. Solicita una nueva cotización.",
      en: "The quote has expired. Request a new quote.",
    },
  },
  API_KEY_LIMIT_REACHED: {
    status: 409,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La integración ya tiene el máximo de llaves activas: revoca una antes de emitir otra.",
      en: "The integration already has the most active keys it may: revoke one before issuing another.",
    },
  },
  LAST_OWNER: {
    status: 409,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La organización debe conservar al menos un propietario: nombra otro antes de quitar o cambiar este.",
      en: "The organization must keep at least one owner: make someone else owner before removing or changing this one.",
    },
  },
  TWO_FACTOR_REQUIRED: {
    status: 409,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La organización exige el inicio de sesión en dos pasos.",
      en: "The organization requires two-factor sign-in.",
    },
  },
  API_KEY_INACTIVE: {
    status: 409,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La llave está revocada o vencida, y eso es definitivo: emite una nueva.",
      en: "The key is revoked or expired, which is final: issue a new one.",
    },
  },
  QUOTE_ALREADY_USED: {
    status: 409,
    retryable: false,
    nextAction: "CREATE_NEW_QUOTE",
    message: {
      es: "La cotización ya se usó para otra orden.",
      en: "The quote has already been used for another order.",
    },
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    retryable: false,
    nextAction: "USE_NEW_IDEMPOTENCY_KEY",
    message: {
      es: "La clave de idempotencia ya se usó con otra solicitud.",
      en: "The idempotency key was already used with a different request.",
    },
  },
  BURN_ALREADY_USED: {
    status: 409,
    retryable: false,
    nextAction: "CHECK_ORDER",
    message: {
      es: "La transacción de quema ya se registró en otra orden.",
      en: "The burn transaction is already registered to another order.",
    },
  },
  BURN_PENDING_CONFIRMATIONS: {
    status: 409,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "La transacción de quema aún no tiene las confirmaciones necesarias. Reintenta en unos segundos.",
      en: "The burn transaction does not have enough confirmations yet. Retry in a few seconds.",
    },
  },
  SLIPPAGE_LIMIT_EXCEEDED: {
    status: 409,
    retryable: true,
    nextAction: "CREATE_NEW_QUOTE",
    message: {
      es: "La ruta cambió más del 4% frente a la cotización; no se creó la orden.",
      en: "The route moved more than 4% against the quote; no order was created.",
    },
  },
  MENTO_CAPACITY_EXCEEDED: {
    status: 409,
    retryAfter: "when-known",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "El intercambio no tiene capacidad para este monto ahora.",
      en: "The exchange has no capacity for this amount right now.",
    },
  },
  ROUTE_UNAVAILABLE: {
    status: 409,
    retryAfter: "when-known",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "No hay una ruta disponible para este monto ahora.",
      en: "No route is available for this amount right now.",
    },
  },
  INTAKE_PAUSED: {
    status: 409,
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "La recepción de órdenes está pausada. No se movieron fondos; el usuario conserva sus USDC.",
      en: "Order intake is paused. No funds moved; the user still holds the USDC.",
    },
  },
  SETTLEMENT_ACCOUNT_INACTIVE: {
    status: 409,
    retryable: false,
    nextAction: "CONTACT_SUPPORT",
    message: {
      es: "La cuenta de liquidación de la organización no está activa.",
      en: "The organization's settlement account is not active.",
    },
  },
} as const satisfies Record<string, ErrorDefinition>;
