import type { ErrorDefinition } from "./definition";

/** Refusals of the request itself: a field that does not parse or is out of bounds, and who may call (400, 403). Part of the one error table (registry.ts). */
export const REQUEST_ERRORS = {
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
  UNSUPPORTED_SOURCE_CHAIN: {
    status: 400,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La cadena de origen no es compatible: GET /api/integrations/settlements/chains lista las compatibles.",
      en: "The source chain is not supported: GET /api/integrations/settlements/chains lists those that are.",
    },
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
  INSUFFICIENT_SCOPE: {
    status: 403,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La llave de API no tiene el alcance que esta operación requiere (requiredScope).",
      en: "The API key lacks the scope this operation needs (requiredScope).",
    },
  },
  INSUFFICIENT_ROLE: {
    status: 403,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "Tu rol en la organización no permite esta acción; pídela a un propietario o administrador.",
      en: "Your role in the organization does not allow this; ask an owner or admin.",
    },
  },
  TWO_FACTOR_CODE_INVALID: {
    status: 400,
    retryable: true,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El código de la app de autenticación o de recuperación no es válido.",
      en: "The authenticator app's code or the recovery code is not valid.",
    },
  },
  LIMIT_EXCEEDED: {
    status: 403,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "El monto supera un límite de volumen de la organización (limit): queda remainingUsd hasta resetsAt.",
      en: "The amount passes one of the organization's volume limits (limit): remainingUsd is left until resetsAt.",
    },
  },
  SANCTIONED_ADDRESS: {
    status: 403,
    retryable: false,
    nextAction: "DO_NOT_SEND_FUNDS",
    message: {
      es: "Una dirección de la solicitud está en una lista de sanciones o de bloqueo: el servicio no opera con ella y no se creó nada.",
      en: "An address in the request is on a sanctions or deny list: the service does not deal with it, and nothing was created.",
    },
  },
  IP_NOT_ALLOWED: {
    status: 403,
    retryable: false,
    nextAction: "FIX_REQUEST",
    message: {
      es: "La llave de API no acepta solicitudes desde esta dirección IP.",
      en: "The API key does not accept requests from this IP address.",
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
} as const satisfies Record<string, ErrorDefinition>;
