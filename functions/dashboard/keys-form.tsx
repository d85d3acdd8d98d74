import type { DashboardContext } from "../../lib/http/dashboard-frame";
import { validationError } from "../../lib/http/validation";
import type { ApiError } from "../../lib/kernel/errors/api-error";
import type { Language } from "../../lib/kernel/errors/error-body";
import type { KeyRequest } from "../../lib/tenancy/integrations";
import { API_SCOPE_NAMES, API_SCOPES, type ApiScope } from "../../lib/tenancy/scopes";
import { keyRequestOf, keyRequestSchema } from "../tenancy/views";
import { Card } from "./card";
import { ErrorNote } from "./feedback";
import { CsrfField, dashboardHref } from "./layout";
import { fill } from "./texts";

/** As the admin API takes it (keyRequestSchema in functions/tenancy/views.ts). */
const NAME_MAX_LENGTH = 200;

/** API_SCOPES' descriptions in Spanish; a scope added there fails to compile until it has one here. */
const SCOPES_ES = {
  "settlements:read": "Leer las cadenas de origen, las órdenes de liquidación y sus líneas de tiempo.",
  "settlements:write": "Cotizar y crear liquidaciones, e informar sus quemas.",
  "payouts:read": "Leer los pagos BRE-B, el estado KYC del usuario y las cotizaciones de pago.",
  "payouts:write":
    "Iniciar la sesión del usuario con su billetera, enviar y verificar su OTP, crear y confirmar pagos.",
  "swaps:read": "Leer los swaps preparados.",
  "swaps:write": "Preparar y confirmar swaps.",
  "webhooks:read": "Leer el endpoint de webhooks, los eventos y las entregas.",
  "webhooks:write": "Configurar, eliminar y probar el endpoint, rotar su secreto y reenviar eventos.",
  "statements:read": "Leer los extractos y buscar transacciones por hash.",
  "sandbox:write": "Solo en modo de prueba: leer la red del sandbox y fondear direcciones con su grifo.",
  "audit:read":
    "Leer el registro de auditoría de los cambios a llaves, miembros, endpoints de webhooks y configuración.",
} as const satisfies Record<ApiScope, string>;

const TEXT = {
  es: {
    issueTitle: "Emitir una llave",
    name: "Nombre (opcional)",
    nameHint: "Para reconocerla en la lista, p. ej. «servidor de producción». Hasta 200 caracteres.",
    scopes: "Alcances",
    scopesHint:
      "Marca lo que la llave podrá hacer; una llamada fuera de sus alcances recibe 403 INSUFFICIENT_SCOPE. Si no marcas ninguno, la llave podrá hacerlo todo (todos los alcances, también los que se agreguen después).",
    scopeDescriptions: SCOPES_ES,
    allowedIps: "Direcciones permitidas (opcional)",
    allowedIpsHint:
      "Una dirección IPv4 o IPv6, o un rango CIDR, por línea (p. ej. 203.0.113.0/24 o 2001:db8::/32), hasta 50. Una llamada desde otra dirección recibe 403 IP_NOT_ALLOWED. Vacío: se acepta desde cualquier dirección.",
    expiresAt: "Vence (opcional, en UTC)",
    expiresAtHint:
      "Fecha y hora en UTC, no en tu hora local, desde la cual la API rechaza la llave con 401: sirve para rotar con un periodo de traslape. Vacío: no vence.",
    issue: "Emitir llave",
    nameTooLong: "El nombre tiene más de 200 caracteres.",
    badScope: "Elige solo alcances de la lista.",
    badAddress: "«{value}» no es una dirección IPv4 o IPv6 ni un rango CIDR.",
    tooManyAddresses: "Como mucho 50 direcciones o rangos.",
    badExpiry: "Escribe una fecha y hora futura y válida, en UTC.",
  },
  en: {
    issueTitle: "Issue a key",
    name: "Name (optional)",
    nameHint: "To recognise it in the list, e.g. “production server”. Up to 200 characters.",
    scopes: "Scopes",
    scopesHint:
      "Check what the key may do; a call outside its scopes gets 403 INSUFFICIENT_SCOPE. Check none for a key that may do everything (every scope, including any added later).",
    scopeDescriptions: API_SCOPES,
    allowedIps: "Allowed addresses (optional)",
    allowedIpsHint:
      "One IPv4 or IPv6 address, or CIDR range, per line (e.g. 203.0.113.0/24 or 2001:db8::/32), up to 50. A call from any other address gets 403 IP_NOT_ALLOWED. Empty: accepted from any address.",
    expiresAt: "Expires (optional, in UTC)",
    expiresAtHint:
      "A date and time in UTC, not your local time, from which the API refuses the key with 401: for a rotation with overlap. Empty: it never expires.",
    issue: "Issue key",
    nameTooLong: "The name is longer than 200 characters.",
    badScope: "Choose only scopes from the list.",
    badAddress: "“{value}” is not an IPv4 or IPv6 address or CIDR range.",
    tooManyAddresses: "At most 50 addresses or ranges.",
    badExpiry: "Enter a valid date and time in the future, in UTC.",
  },
} as const;

type FormText = (typeof TEXT)[Language];

/** The issue form as typed, given back as it was when it is refused. */
export interface KeyForm {
  name: string;
  scopes: string[];
  /** The textarea's text: one address or range a line. */
  allowedIps: string;
  /** The datetime-local input's value, read as UTC. */
  expiresAt: string;
}

export const EMPTY_KEY_FORM: KeyForm = { name: "", scopes: [], allowedIps: "", expiresAt: "" };

type Field = keyof KeyForm;

/** The issue form's fields as posted (the frame already parsed the body to check its token). */
export async function postedKeyForm(c: DashboardContext): Promise<KeyForm> {
  const body = await c.req.parseBody({ all: true });
  const strings = (name: Field) =>
    [body[name]].flat().filter((value): value is string => typeof value === "string");
  const last = (name: Field) => strings(name).at(-1) ?? "";
  return {
    name: last("name"),
    scopes: strings("scopes"),
    allowedIps: last("allowedIps"),
    expiresAt: last("expiresAt"),
  };
}

/**
 * What the form asks for, checked by the admin API's own schema: a refused field is INVALID_REQUEST
 * naming it (`body.allowedIps.2`) exactly as the API answers the same body; the domain verb then
 * checks the ranges and the expiry as it does for the API.
 */
export function keyRequestOfForm(form: KeyForm): KeyRequest {
  const parsed = keyRequestSchema.safeParse(requestBodyOf(form));
  if (!parsed.success) throw validationError("json", parsed.error.issues);
  return keyRequestOf(parsed.data);
}

/** The body the admin API would be sent: a blank field is an absent one (no limit). */
function requestBodyOf(form: KeyForm): Record<string, unknown> {
  const name = form.name.trim();
  const allowedIps = addressLines(form.allowedIps);
  const expiresAt = form.expiresAt.trim();
  return {
    ...(name ? { name } : {}),
    ...(form.scopes.length > 0 ? { scopes: form.scopes } : {}),
    ...(allowedIps.length > 0 ? { allowedIps } : {}),
    ...(expiresAt ? { expiresAt: utcDateTime(expiresAt) } : {}),
  };
}

/** The allow list's lines, trimmed, blank ones dropped: the API's `body.allowedIps.<i>` is the i-th. */
function addressLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/**
 * A datetime-local input's value (`2026-12-01T09:30`, seconds optional) read as UTC, as the form
 * says; anything else as typed, for the schema to refuse.
 */
export function utcDateTime(typed: string): string {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(typed)) return `${typed}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?$/.test(typed)) return `${typed}Z`;
  return typed;
}

/** A time as a datetime-local input shows it, in UTC: to the minute, or to the second when it has seconds. */
export function utcInputValue(at: Date): string {
  const iso = at.toISOString();
  if (!/^\d{4}-/.test(iso)) return "";
  return iso.slice(17, 23) === "00.000" ? iso.slice(0, 16) : iso.slice(0, 19);
}

/** The form that issues a key: name, scopes, allow list and expiry, each refused field's message beside it. */
export function IssueKeyCard(props: {
  c: DashboardContext;
  integrationId: string;
  form: KeyForm;
  error: ApiError | undefined;
}) {
  const { c, form } = props;
  const t = TEXT[c.get("dashboard").language];
  const errors = fieldErrors(props.error, form, t);
  const checked = new Set(form.scopes);
  return (
    <Card id="issue-title" title={t.issueTitle}>
      <ErrorNote c={c} error={props.error} />
      <form method="post" action={dashboardHref("/keys", { integration: props.integrationId })}>
        <CsrfField c={c} />
        <label for="key-name">{t.name}</label>
        <input
          id="key-name"
          name="name"
          type="text"
          maxlength={NAME_MAX_LENGTH}
          autocomplete="off"
          {...describedBy("key-name", errors.name)}
          value={form.name}
        />
        <p id="key-name-hint">{t.nameHint}</p>
        <FieldError id="key-name-error" messages={errors.name} />
        <fieldset {...describedBy("key-scopes", errors.scopes, false)}>
          <legend>{t.scopes}</legend>
          <p id="key-scopes-hint">{t.scopesHint}</p>
          <FieldError id="key-scopes-error" messages={errors.scopes} />
          {API_SCOPE_NAMES.map((scope) => (
            <label class="check scope">
              <input type="checkbox" name="scopes" value={scope} checked={checked.has(scope)} />
              <span>
                <code>{scope}</code> {t.scopeDescriptions[scope]}
              </span>
            </label>
          ))}
        </fieldset>
        <label for="key-allowed-ips">{t.allowedIps}</label>
        <textarea
          id="key-allowed-ips"
          name="allowedIps"
          rows={4}
          spellcheck={false}
          autocomplete="off"
          {...describedBy("key-allowed-ips", errors.allowedIps)}
        >
          {form.allowedIps}
        </textarea>
        <p id="key-allowed-ips-hint">{t.allowedIpsHint}</p>
        <FieldError id="key-allowed-ips-error" messages={errors.allowedIps} />
        <label for="key-expires-at">{t.expiresAt}</label>
        <input
          id="key-expires-at"
          name="expiresAt"
          type="datetime-local"
          autocomplete="off"
          {...describedBy("key-expires-at", errors.expiresAt)}
          value={form.expiresAt}
        />
        <p id="key-expires-at-hint">{t.expiresAtHint}</p>
        <FieldError id="key-expires-at-error" messages={errors.expiresAt} />
        <div class="actions">
          <button type="submit">{t.issue}</button>
        </div>
      </form>
    </Card>
  );
}

/** A field's hint, and its error when it has one, as what describes it; invalid when it has one. */
function describedBy(id: string, errors: string[] | undefined, invalid = true) {
  return {
    "aria-describedby": errors ? `${id}-hint ${id}-error` : `${id}-hint`,
    ...(errors && invalid ? { "aria-invalid": "true" } : {}),
  };
}

/** A refused field's messages, right after it. */
export function FieldError(props: { id: string; messages: string[] | undefined }) {
  if (!props.messages) return null;
  return (
    <p class="field-error" id={props.id}>
      {props.messages.join(" ")}
    </p>
  );
}

/** Each refused field's messages in the page's language, from the problems the API names (`body.allowedIps.2`). */
function fieldErrors(error: ApiError | undefined, form: KeyForm, t: FormText) {
  const lines = addressLines(form.allowedIps);
  const found = new Map<Field, Set<string>>();
  for (const problem of error?.options.problems ?? []) {
    const [where, field, index] = problem.field.split(".");
    if (where !== "body" || !isField(field)) continue;
    const messages = found.get(field) ?? new Set();
    messages.add(fieldMessage(t, field, index, lines));
    found.set(field, messages);
  }
  return Object.fromEntries([...found].map(([field, messages]) => [field, [...messages]])) as Partial<
    Record<Field, string[]>
  >;
}

function isField(name: string | undefined): name is Field {
  return name !== undefined && Object.hasOwn(EMPTY_KEY_FORM, name);
}

function fieldMessage(t: FormText, field: Field, index: string | undefined, lines: string[]): string {
  switch (field) {
    case "name":
      return t.nameTooLong;
    case "scopes":
      return t.badScope;
    case "allowedIps":
      return index === undefined
        ? t.tooManyAddresses
        : fill(t.badAddress, { value: lines[Number(index)] ?? index });
    case "expiresAt":
      return t.badExpiry;
  }
}
