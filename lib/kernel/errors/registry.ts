/**
 * Every error code the API answers with, in one place: its HTTP status, whether the same request
 * may succeed if retried, what the caller should do next, and its message in Spanish and English.
 * Routes, the error middleware and the OpenAPI document all read this table.
 */
export type NextAction =
  | "FIX_REQUEST"
  | "RETRY"
  | "RETRY_LATER"
  | "CREATE_NEW_QUOTE"
  | "USE_EXISTING_ORDER"
  | "USE_NEW_IDEMPOTENCY_KEY"
  | "CHECK_ORDER"
  | "SEND_NEW_OTP"
  | "COMPLETE_KYC"
  | "DO_NOT_SEND_FUNDS"
  | "CHECK_PAYOUT"
  | "PREPARE_NEW_SWAP"
  | "SIGN_IN_WITH_WALLET"
  | "CONTACT_SUPPORT";

/**
 * Whether the API's answer with the code carries `Retry-After` (whole seconds, at least 1): `always`, on
 * every answer; `when-known`, only when the service knows how long to wait (a provider said so). A code
 * without it never carries the header. The OpenAPI document declares the header from this
 * (lib/http/openapi-errors.ts), and docs/errors.md lists it.
 */
export type RetryAfter = "always" | "when-known";

export interface ErrorDefinition {
  status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;
  retryable: boolean;
  nextAction: NextAction;
  message: { es: string; en: string };
  retryAfter?: RetryAfter;
}

export const ERRORS = {
  INVALID_REQUEST: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "La solicitud no es válida.", en: "The request is not valid." },
  },
  INVALID_AMOUNT: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El monto debe ser una cadena decimal positiva con los decimales del token como máximo.",
      en: "The amount must be a positive decimal string with no more places than the token has.",
    },
  },
  INVALID_SOURCE_ADDRESS: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "La dirección de origen no es válida.", en: "The source address is not valid." },
  },
  INVALID_DESTINATION_ADDRESS: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "La dirección de destino no es válida.", en: "The destination address is not valid." },
  },
  BELOW_MINIMUM: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "El monto está por debajo del mínimo.", en: "The amount is below the minimum." },
  },
  ABOVE_MAXIMUM: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "El monto supera el máximo.", en: "The amount is above the maximum." },
  },
  INVALID_IDEMPOTENCY_KEY: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El encabezado Idempotency-Key es obligatorio y debe tener entre 1 y 200 caracteres.",
      en: "The Idempotency-Key header is required and must be 1 to 200 characters long.",
    },
  },
  INVALID_BURN: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La transacción no corresponde a la quema de esta orden.",
      en: "The transaction is not this order's burn.",
    },
  },
  INVALID_EMAIL: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "El correo electrónico no es válido.", en: "The email address is not valid." },
  },
  INVALID_USER_ADDRESS: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La dirección del usuario debe ser una dirección EVM con checksum EIP-55.",
      en: "The user address must be an EIP-55 checksummed EVM address.",
    },
  },
  OTP_INVALID: {
    status: 400,
    retryable: true,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El código no es correcto. Revisa el código e inténtalo de nuevo.",
      en: "The code is not correct. Check the code and try again.",
    },
  },
  OTP_EXPIRED: {
    status: 400,
    retryable: false,
    nextAction: "SEND_NEW_OTP",
    message: {
      es: "El código expiró. Solicita un código nuevo.",
      en: "The code has expired. Request a new code.",
    },
  },
  INVALID_BREB_KEY: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La llave BRE-B no tiene un formato válido (celular, correo, cédula, @alias o código de comercio).",
      en: "The BRE-B key is not well formed (mobile number, email, national ID, @alias or merchant code).",
    },
  },
  INVALID_DEPOSIT: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La transacción no es el depósito de este pago.",
      en: "The transaction is not this payout's deposit.",
    },
  },
  INVALID_WALLET_ADDRESS: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "La dirección de la billetera no es válida.", en: "The wallet address is not valid." },
  },
  UNSUPPORTED_PAIR: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El par no está soportado: USDT, USDC o USDm a COPm, y COPm a USDT.",
      en: "The pair is not supported: USDT, USDC or USDm to COPm, and COPm to USDT.",
    },
  },
  INVALID_SWAP: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La transacción no es el swap preparado.",
      en: "The transaction is not the prepared swap.",
    },
  },
  INVALID_WEBHOOK_URL: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La URL del webhook no es aceptable: debe ser https hacia un nombre de host público.",
      en: "The webhook URL is not acceptable: it must be https to a public host name.",
    },
  },
  WEBHOOK_ENDPOINT_DISABLED: {
    status: 409,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El endpoint de webhooks está deshabilitado. Vuelve a habilitarlo con PUT /api/integrations/webhooks/endpoint.",
      en: "The webhook endpoint is disabled. Enable it again with PUT /api/integrations/webhooks/endpoint.",
    },
  },
  WALLET_SESSION_REQUIRED: {
    status: 403,
    retryable: false,
    nextAction: "SIGN_IN_WITH_WALLET",
    message: {
      es: "Se requiere una sesión de la billetera del usuario: firma el mensaje del servicio con la billetera y envía la sesión en el encabezado Wallet-Session.",
      en: "A session of the user's wallet is required: sign the service's message with the wallet and send the session in the Wallet-Session header.",
    },
  },
  INVALID_WALLET_SIGNATURE: {
    status: 400,
    retryable: false,
    nextAction: "SIGN_IN_WITH_WALLET",
    message: {
      es: "La firma no prueba el control de la billetera sobre el mensaje emitido por el servicio.",
      en: "The signature does not prove the wallet's control over the message the service issued.",
    },
  },
  WALLET_CHALLENGE_EXPIRED: {
    status: 400,
    retryable: false,
    nextAction: "SIGN_IN_WITH_WALLET",
    message: {
      es: "El mensaje para firmar venció o ya se usó. Pide uno nuevo.",
      en: "The message to sign has expired or was already used. Ask for a new one.",
    },
  },
  KYC_REQUIRED: {
    status: 403,
    retryable: false,
    nextAction: "COMPLETE_KYC",
    message: {
      es: "El usuario debe completar la verificación de identidad (KYC) antes de un pago.",
      en: "The user must complete identity verification (KYC) before a payout.",
    },
  },
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
  API_VERSION_UNKNOWN: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La versión de la API pedida en API-Version no existe.",
      en: "The API version asked for in API-Version does not exist.",
    },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: { es: "El cuerpo supera 64 KiB.", en: "The body is larger than 64 KiB." },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El cuerpo debe enviarse como application/json.",
      en: "The body must be sent as application/json.",
    },
  },
  OTP_RESEND_TOO_SOON: {
    status: 429,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "Ya se envió un código hace poco. Espera el tiempo indicado en Retry-After.",
      en: "A code was sent moments ago. Wait the time given in Retry-After.",
    },
  },
  OTP_SEND_LIMIT_REACHED: {
    status: 429,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "Se enviaron demasiados códigos a este correo en la última hora. Espera el tiempo indicado en Retry-After.",
      en: "Too many codes were sent to this email in the last hour. Wait the time given in Retry-After.",
    },
  },
  OTP_LOCKED: {
    status: 429,
    retryAfter: "always",
    retryable: false,
    nextAction: "SEND_NEW_OTP",
    message: {
      es: "Demasiados intentos con este código. Solicita un código nuevo.",
      en: "Too many attempts with this code. Request a new code.",
    },
  },
  RATE_LIMITED: {
    status: 429,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "Demasiadas solicitudes. Reintenta después del tiempo indicado en Retry-After.",
      en: "Too many requests. Retry after the time given in Retry-After.",
    },
  },
  INTERNAL_ERROR: {
    status: 500,
    retryable: true,
    nextAction: "RETRY_LATER",
    message: { es: "Error interno del servicio.", en: "Internal service error." },
  },
  PROVIDER_UNAVAILABLE: {
    status: 503,
    retryAfter: "when-known",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "Un proveedor no respondió a tiempo. Reintenta en unos segundos.",
      en: "A provider did not answer in time. Retry in a few seconds.",
    },
  },
  EMAIL_UNAVAILABLE: {
    status: 503,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "No se pudo enviar el correo con el código. Reintenta en unos segundos.",
      en: "The email with the code could not be sent. Retry in a few seconds.",
    },
  },
  PAYOUTS_UNCONFIGURED: {
    status: 503,
    retryable: false,
    nextAction: "CONTACT_SUPPORT",
    message: {
      es: "Los pagos BRE-B no están configurados en este servicio.",
      en: "BRE-B payouts are not configured on this service.",
    },
  },
  WEBHOOKS_UNCONFIGURED: {
    status: 503,
    retryable: false,
    nextAction: "CONTACT_SUPPORT",
    message: {
      es: "Los webhooks no están configurados en este servicio (falta WEBHOOK_SECRETS_KEY).",
      en: "Webhooks are not configured on this service (WEBHOOK_SECRETS_KEY is missing).",
    },
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
