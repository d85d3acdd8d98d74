import type { AUDIT_ACTION_TABLE, AuditAction, AuditActorType } from "../../lib/audit/actions";
import { AUDIT_PAGE_LIMIT } from "../../lib/audit/list";
import type { Language } from "../../lib/kernel/errors/error-body";

/** Every action's label: an action added to AUDIT_ACTION_TABLE fails to compile until it has both. */
export const ACTION_LABELS = {
  es: {
    "organization.updated": "Ajustes de la organización cambiados",
    "api_key.issued": "Llave de API emitida",
    "api_key.updated": "Llave de API cambiada",
    "api_key.revoked": "Llave de API revocada",
    "member.added": "Miembro agregado",
    "member.revoked": "Miembro revocado",
    "webhook_endpoint.set": "Endpoint de webhooks configurado",
    "webhook_endpoint.deleted": "Endpoint de webhooks eliminado",
    "webhook_endpoint.secret_rotated": "Secreto de webhooks rotado",
  },
  en: {
    "organization.updated": "Organization settings changed",
    "api_key.issued": "API key issued",
    "api_key.updated": "API key changed",
    "api_key.revoked": "API key revoked",
    "member.added": "Member added",
    "member.revoked": "Member revoked",
    "webhook_endpoint.set": "Webhook endpoint set",
    "webhook_endpoint.deleted": "Webhook endpoint deleted",
    "webhook_endpoint.secret_rotated": "Webhook secret rotated",
  },
} as const satisfies Record<Language, Record<AuditAction, string>>;

export const ACTOR_LABELS = {
  es: { member: "Miembro", operator: "Operador", api_key: "Llave de API", service: "El servicio" },
  en: { member: "Member", operator: "Operator", api_key: "API key", service: "The service" },
} as const satisfies Record<Language, Record<AuditActorType, string>>;

type AuditTarget = (typeof AUDIT_ACTION_TABLE)[AuditAction]["target"];

export const TARGET_LABELS = {
  es: {
    organization: "Organización",
    api_key: "Llave de API",
    member: "Miembro",
    webhook_endpoint: "Endpoint de webhooks",
  },
  en: {
    organization: "Organization",
    api_key: "API key",
    member: "Member",
    webhook_endpoint: "Webhook endpoint",
  },
} as const satisfies Record<Language, Record<AuditTarget, string>>;

export const TEXT = {
  es: {
    title: "Registro de auditoría",
    intro:
      "Cada cambio a las llaves de API, los miembros, el endpoint de webhooks y los ajustes de tu organización, del más reciente al más antiguo: quién lo hizo, cuándo, desde qué dirección y qué cambió (nunca un secreto), como lo lista GET /api/integrations/audit-log.",
    everyIntegration: "El registro es de toda la organización: todas sus integraciones a la vez.",
    caption: "Cambios",
    action: "Acción",
    allActions: "Todas",
    from: "Desde (UTC)",
    to: "Hasta (UTC, incluido)",
    at: "Cuándo (UTC)",
    who: "Quién",
    address: "Dirección",
    target: "Sobre",
    changes: "Antes → después",
    noChange: "Ningún campo cambió de valor.",
    none: "No hay cambios registrados con estos filtros.",
    newest: "Los más recientes",
    older: "Más antiguos",
    pages: "Páginas",
    intro400: "Revisa el filtro:",
    badAction: "«Acción» no es una de las acciones de la lista",
    badFrom: "«Desde» debe ser una fecha AAAA-MM-DD que exista",
    badTo: "«Hasta» debe ser una fecha AAAA-MM-DD que exista",
    toBeforeFrom: "«Hasta» no puede ser anterior a «Desde»",
    badLimit: `«limit» debe ser un número entero de 1 a ${AUDIT_PAGE_LIMIT}`,
    badCursor: "el cursor no es de esta lista; vuelve a la primera página",
  },
  en: {
    title: "Audit log",
    intro:
      "Every change to your organization's API keys, members, webhook endpoint and settings, newest first: who made it, when, from which address and what changed (never a secret), as GET /api/integrations/audit-log lists it.",
    everyIntegration: "The log is the whole organization's: every integration at once.",
    caption: "Changes",
    action: "Action",
    allActions: "All",
    from: "From (UTC)",
    to: "To (UTC, included)",
    at: "When (UTC)",
    who: "Who",
    address: "Address",
    target: "Target",
    changes: "Before → after",
    noChange: "No field changed its value.",
    none: "No recorded change matches these filters.",
    newest: "Newest",
    older: "Older",
    pages: "Pages",
    intro400: "Check the filter:",
    badAction: "“Action” is not one of the listed actions",
    badFrom: "“From” must be a date, YYYY-MM-DD, that exists",
    badTo: "“To” must be a date, YYYY-MM-DD, that exists",
    toBeforeFrom: "“To” cannot be before “From”",
    badLimit: `“limit” must be a whole number from 1 to ${AUDIT_PAGE_LIMIT}`,
    badCursor: "the cursor is not one of this list's; go back to the first page",
  },
} as const satisfies Record<Language, Record<string, string>>;

export type AuditText = (typeof TEXT)[Language];
export type Hint = "badAction" | "badFrom" | "badTo" | "toBeforeFrom" | "badLimit" | "badCursor";
