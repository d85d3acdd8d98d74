import { REQUEST_LOGS_PAGE_LIMIT } from "../../lib/audit/request-logs";
import type { Language } from "../../lib/kernel/errors/error-body";
import { LOG_FILTER_TEXT } from "./log-filters";

export const TEXT = {
  es: {
    ...LOG_FILTER_TEXT.es,
    title: "Solicitudes a la API",
    intro:
      "Cada solicitud que las llaves de API de tu organización hicieron en los últimos 7 días, de la más reciente a la más antigua, como las lista GET /api/integrations/request-logs. Cada id abre la solicitud con sus cuerpos, sin secretos, llaves, correos ni llaves BRE-B.",
    everyIntegration: "El registro es de toda la organización: las solicitudes de todas sus integraciones.",
    caption: "Solicitudes",
    requestId: "Id de la solicitud",
    status: "Estado HTTP",
    statusHint: "Un código exacto, como 404.",
    path: "Ruta (empieza por)",
    method: "Método",
    errorCode: "Código de error",
    key: "Llave de API",
    integration: "Integración",
    latency: "Latencia (ms)",
    idempotencyKey: "Llave de idempotencia",
    address: "Dirección",
    none: "No hay solicitudes registradas con estos filtros.",
    newest: "Las más recientes",
    older: "Más antiguas",
    badRequestId: "«Id de la solicitud» debe tener de 1 a 128 caracteres",
    badStatus: "«Estado HTTP» debe ser un código de 100 a 599, como 404",
    badPath: "«Ruta» debe empezar por / y tener a lo sumo 200 caracteres",
    badLimit: `«limit» debe ser un número entero de 1 a ${REQUEST_LOGS_PAGE_LIMIT}`,
    detailTitle: "Solicitud {id}",
    back: "Volver a las solicitudes",
    facts: "La solicitud",
    requestBody: "Cuerpo enviado",
    responseBody: "Cuerpo respondido",
    noBody: "Sin cuerpo JSON.",
    redactedNote:
      "Los secretos, llaves, sesiones, códigos, firmas, correos y llaves BRE-B se guardan como [redacted], y un cuerpo largo se guarda recortado (…[truncated]).",
  },
  en: {
    ...LOG_FILTER_TEXT.en,
    title: "Request logs",
    intro:
      "Each request your organization's API keys made in the last 7 days, newest first, as GET /api/integrations/request-logs lists them. Each id opens the request with its bodies, without secrets, keys, emails or BRE-B keys.",
    everyIntegration: "The log is the whole organization's: the requests of every integration.",
    caption: "Requests",
    requestId: "Request id",
    status: "HTTP status",
    statusHint: "An exact code, such as 404.",
    path: "Path (starts with)",
    method: "Method",
    errorCode: "Error code",
    key: "API key",
    integration: "Integration",
    latency: "Latency (ms)",
    idempotencyKey: "Idempotency key",
    address: "Address",
    none: "No logged request matches these filters.",
    newest: "Newest",
    older: "Older",
    badRequestId: "“Request id” must be 1 to 128 characters",
    badStatus: "“HTTP status” must be a code from 100 to 599, such as 404",
    badPath: "“Path” must start with / and be at most 200 characters",
    badLimit: `“limit” must be a whole number from 1 to ${REQUEST_LOGS_PAGE_LIMIT}`,
    detailTitle: "Request {id}",
    back: "Back to the requests",
    facts: "The request",
    requestBody: "Body sent",
    responseBody: "Body answered",
    noBody: "No JSON body.",
    redactedNote:
      "Secrets, keys, sessions, codes, signatures, emails and BRE-B keys are kept as [redacted], and a long body is kept cut short (…[truncated]).",
  },
} as const satisfies Record<Language, Record<string, string>>;

export type RequestLogsText = (typeof TEXT)[Language];
export type Hint =
  | "badRequestId"
  | "badStatus"
  | "badPath"
  | "badFrom"
  | "badTo"
  | "toBeforeFrom"
  | "badLimit"
  | "badCursor";
