import type { DashboardContext } from "../../lib/http/dashboard-frame";
import type { ApiError } from "../../lib/kernel/errors/api-error";
import type { ApiKeyRecord } from "../../lib/tenancy/organizations";
import { DataTable } from "./data-table";
import { StatusPill, Time } from "./format";
import { FieldError, utcInputValue } from "./keys-form";
import type { KeysText } from "./keys-text";
import { CsrfField, dashboardHref } from "./layout";
import { PostButton } from "./post-button";
import { commonText, fill } from "./texts";

/** A key's expiry form as typed when it was refused, and why. */
export interface ExpiryRefusal {
  keyId: string;
  typed: string;
  error: ApiError;
}

export function KeyTable(props: {
  c: DashboardContext;
  t: KeysText;
  keys: ApiKeyRecord[];
  integrationId: string;
  expiry: ExpiryRefusal | undefined;
}) {
  const { c, t } = props;
  const common = commonText(c.get("dashboard").language);
  const now = c.get("services").clock.now();
  const expired = (key: ApiKeyRecord) => key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime();
  return (
    <DataTable
      labelledBy="keys-title"
      rows={props.keys}
      rowAttributes={(key) => ({ "data-key-id": key.id })}
      columns={[
        { head: t.keyName, kind: "name", cell: (key) => key.name ?? t.unnamed },
        { head: t.start, kind: "mono", cell: (key) => `${key.start}…` },
        { head: t.scopes, cell: (key) => <Codes values={key.scopes} all={t.allScopes} /> },
        { head: t.allowedIps, cell: (key) => <Codes values={key.allowedIps} all={t.anyAddress} /> },
        { head: common.created, cell: (key) => <Time at={key.createdAt} /> },
        { head: t.lastUsed, cell: (key) => (key.lastUsedAt ? <Time at={key.lastUsedAt} /> : t.never) },
        {
          head: t.state,
          cell: (key) =>
            key.revokedAt ? (
              <>
                <StatusPill status={t.revoked} tone="bad" />{" "}
                <span>
                  <Time at={key.revokedAt} />
                </span>
              </>
            ) : expired(key) ? (
              <StatusPill status={t.expired} tone="bad" />
            ) : (
              <StatusPill status={t.active} tone="good" />
            ),
        },
        {
          head: t.expires,
          cell: (key) => (
            <>
              <div>{key.expiresAt ? <UtcTime at={key.expiresAt} /> : t.noExpiry}</div>
              {key.revokedAt || expired(key) ? null : (
                <ExpiryForm
                  c={c}
                  t={t}
                  keyRecord={key}
                  integrationId={props.integrationId}
                  refusal={props.expiry?.keyId === key.id ? props.expiry : undefined}
                />
              )}
            </>
          ),
        },
        {
          head: t.action,
          cell: (key) =>
            key.revokedAt ? (
              "—"
            ) : (
              <PostButton
                c={c}
                action={dashboardHref(`/keys/${encodeURIComponent(key.id)}/revoke`, {
                  integration: props.integrationId,
                })}
                confirm={fill(t.confirmRevoke, { start: key.start })}
                variant="danger"
                label={fill(t.revokeLabel, { start: key.start })}
              >
                {t.revoke}
              </PostButton>
            ),
        },
      ]}
    />
  );
}

/**
 * An expiry in UTC, as its form reads and shows it: unlike <Time>, the page's script leaves it in UTC,
 * so the column and its form never disagree by the viewer's offset.
 */
function UtcTime(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <span data-utc={iso}>{`${iso.slice(0, 19).replace("T", " ")} UTC`}</span>;
}

/** A key's scopes or ranges, one a line; `all` when it has none (no limit). */
function Codes(props: { values: readonly string[] | null; all: string }) {
  if (props.values === null) return <>{props.all}</>;
  return (
    <ul class="bare">
      {props.values.map((value) => (
        <li>
          <code>{value}</code>
        </li>
      ))}
    </ul>
  );
}

/**
 * A working key's expiry, to set, move or clear (empty: never), read as UTC: a rotation with
 * overlap gives the old key an expiry once the new one is issued. A refused value comes back as typed.
 */
function ExpiryForm(props: {
  c: DashboardContext;
  t: KeysText;
  keyRecord: ApiKeyRecord;
  integrationId: string;
  refusal: ExpiryRefusal | undefined;
}) {
  const { c, t, keyRecord: key, refusal } = props;
  const id = `expiry-${key.id}`;
  const value = refusal ? refusal.typed : key.expiresAt ? utcInputValue(key.expiresAt) : "";
  const invalid = refusal?.error.code === "INVALID_REQUEST";
  return (
    <form
      method="post"
      class="inline"
      action={dashboardHref(`/keys/${encodeURIComponent(key.id)}/expiry`, {
        integration: props.integrationId,
      })}
    >
      <CsrfField c={c} />
      <input
        id={id}
        name="expiresAt"
        type="datetime-local"
        step={value.length > 16 ? 1 : undefined}
        autocomplete="off"
        aria-label={fill(t.expiryLabel, { start: key.start })}
        aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={invalid ? "true" : undefined}
        value={value}
      />
      <button type="submit" class="secondary" aria-label={fill(t.setExpiryLabel, { start: key.start })}>
        {t.setExpiry}
      </button>
      <small id={`${id}-hint`}>{t.expiryHint}</small>
      <FieldError id={`${id}-error`} messages={invalid ? [t.badExpiry] : undefined} />
    </form>
  );
}
