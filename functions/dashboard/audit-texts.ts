import type { AUDIT_ACTION_TABLE, AuditAction, AuditActorType } from "../../lib/audit/actions";
import { AUDIT_PAGE_LIMIT } from "../../lib/audit/list";
import type { Language } from "../../lib/kernel/errors/error-body";
import { LOG_FILTER_TEXT } from "./log-filters";

/** Every action's label: an action added to AUDIT_ACTION_TABLE fails to compile until it has both. */
export const ACTION_LABELS = {
  es: {
    "organization.updated": "Ajustes de la organización cambiados",
    "api_key.issued": "Llave de API emitida",
    "api_key.updated": "Llave de API cambiada",
    "api_key.revoked": "Llave de API revocada",
    "member.added": "Miembro agregado",
    "member.revoked": "Miembro revocado",
    "member.role_changed": "Rol de miembro cambiado",
    "member.two_factor_enabled": "Inicio de sesión en dos pasos activado",
    "member.two_factor_disabled": "Inicio de sesión en dos pasos desactivado",
    "member.two_factor_reset": "Inicio de sesión en dos pasos restablecido",
    "member.recovery_codes_regenerated": "Códigos de recuperación regenerados",
    "member.recovery_code_used": "Código de recuperación usado al iniciar sesión",
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
    "member.role_changed": "Member's role changed",
    "member.two_factor_enabled": "Two-factor sign-in turned on",
    "member.two_factor_disabled": "Two-factor sign-in turned off",
    "member.two_factor_reset": "Two-factor sign-in reset",
    "member.recovery_codes_regenerated": "Recovery codes regenerated",
    "member.recovery_code_used": "Recovery code used to sign in",
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
    ...LOG_FILTER_TEXT.es,
    title: "Registro de auditoría",
    intro:
      "Cada cambio a las llaves de API, los miembros, el endpoint de webhooks y los ajustes de tu organización, del más reciente al más antiguo: quién lo hizo, cuándo, desde qué dirección y qué cambió (nunca un secreto), como lo lista GET /api/integrations/audit-log.",
    everyIntegration: "El registro es de toda la organización: todas sus integraciones a la vez.",
    caption: "Cambios",
    action: "Acción",
    allActions: "Todas",
    who: "Quién",
    address: "Dirección",
    target: "Sobre",
    changes: "Antes → después",
    noChange: "Ningún campo cambió de valor.",
    none: "No hay cambios registrados con estos filtros.",
    newest: "Los más recientes",
    older: "Más antiguos",
    badAction: "«Acción» no es una de las acciones de la lista",
    badLimit: `«limit» debe ser un número entero de 1 a ${AUDIT_PAGE_LIMIT}`,
  },
  en: {
    ...LOG_FILTER_TEXT.en,
    title: "Audit log",
    intro:
      "Every change to your organization's API keys, members, webhook endpoint and settings, newest first: who made it, when, from which address and what changed (never a secret), as GET /api/integrations/audit-log lists it.",
    everyIntegration: "The log is the whole organization's: every integration at once.",
    caption: "Changes",
    action: "Action",
    allActions: "All",
    who: "Who",
    address: "Address",
    target: "Target",
    changes: "Before → after",
    noChange: "No field changed its value.",
    none: "No recorded change matches these filters.",
    newest: "Newest",
    older: "Older",
    badAction: "“Action” is not one of the listed actions",
    badLimit: `“limit” must be a whole number from 1 to ${AUDIT_PAGE_LIMIT}`,
  },
} as const satisfies Record<Language, Record<string, string>>;

export type AuditText = (typeof TEXT)[Language];
export type Hint = "badAction" | "badFrom" | "badTo" | "toBeforeFrom" | "badLimit" | "badCursor";
