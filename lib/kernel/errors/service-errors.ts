import type { ErrorDefinition } from "./definition";

/** What the service itself answers whatever the operation: versions, sizes, media types, rate limits, faults and outages. Part of the one error table (registry.ts). */
export const SERVICE_ERRORS = {
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
  SCREENING_UNAVAILABLE: {
    status: 503,
    retryAfter: "always",
    retryable: true,
    nextAction: "RETRY_LATER",
    message: {
      es: "No se pudo verificar la dirección contra la lista de sanciones ahora; no se creó nada. Reintenta en unos segundos.",
      en: "The address could not be checked against the sanctions list right now; nothing was created. Retry in a few seconds.",
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
  PAGES_UNCONFIGURED: {
    status: 503,
    retryable: false,
    nextAction: "CONTACT_SUPPORT",
    message: {
      es: "El panel y la miniapp no están configurados en este servicio (falta el enlace PAGES al worker de páginas).",
      en: "The dashboard and the miniapp are not configured on this service (the PAGES binding to the pages worker is missing).",
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
