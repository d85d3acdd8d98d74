import type { OpenAPIHono } from "@hono/zod-openapi";
import { renderSVG } from "uqr";
import {
  confirmEnrollment,
  disableTwoFactor,
  type Enrollment,
  pendingEnrollment,
  regenerateRecoveryCodes,
  setTwoFactorRequirement,
  startEnrollment,
} from "../../lib/dashboard/two-factor";
import {
  type DashboardContext,
  formField,
  member,
  memberMay,
  SECURITY_PATH,
} from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { Card } from "./card";
import { DoneNote, ErrorNote } from "./feedback";
import { CsrfField, renderPage } from "./layout";
import { PostButton } from "./post-button";
import { SecretOnce } from "./secret-once";
import { type SecurityText, TEXT } from "./security-text";
import { fill } from "./texts";

const DONE = { disabled: "doneDisabled", requirement: "doneRequirement" } as const;

interface PageState {
  done?: string;
  error?: ApiError;
  enrollment?: Enrollment;
  recoveryCodes?: string[];
}

/**
 * The member's two-factor sign-in (TOTP, RFC 6238): set it up from a QR code, turn it off or make new
 * recovery codes with a current code; owners also require it of every member. Reachable by every
 * role, and the one page a member whose organization requires two-factor reaches before setting it up.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(SECURITY_PATH, (c) => {
    const t = text(c);
    const done = DONE[c.req.query("done") as keyof typeof DONE];
    // After a sign-in by recovery code: how many are left (a count, never a code).
    const left = c.req.query("recovery");
    const recovery = left && /^\d{1,2}$/.test(left) ? fill(t.recoveryUsed, { count: left }) : undefined;
    return securityPage(c, { done: done ? t[done] : recovery });
  });

  app.post(`${SECURITY_PATH}/two-factor/start`, async (c) =>
    securityPage(c, { enrollment: await startEnrollment(c.get("services"), member(c)) }),
  );

  app.post(`${SECURITY_PATH}/two-factor/confirm`, (c) =>
    answer(c, async () => {
      const { recoveryCodes } = await confirmEnrollment(
        c.get("services"),
        member(c),
        await formField(c, "code"),
      );
      return { recoveryCodes };
    }),
  );

  app.post(`${SECURITY_PATH}/recovery-codes`, (c) =>
    answer(c, async () => regenerateRecoveryCodes(c.get("services"), member(c), await formField(c, "code"))),
  );

  app.post(`${SECURITY_PATH}/two-factor/disable`, (c) =>
    answer(c, async () => {
      await disableTwoFactor(c.get("services"), member(c), await formField(c, "code"));
      return "disabled";
    }),
  );

  app.post(`${SECURITY_PATH}/requirement`, (c) =>
    answer(c, async () => {
      await setTwoFactorRequirement(c.get("services"), member(c), (await formField(c, "required")) === "on");
      return "requirement";
    }),
  );
}

/** Runs an action: a redirect for a `done` key, the page with what it made, or the page with its error. */
async function answer(c: DashboardContext, action: () => Promise<PageState | keyof typeof DONE>) {
  try {
    const outcome = await action();
    if (typeof outcome === "string") return c.redirect(`${SECURITY_PATH}?done=${outcome}`, 303);
    return securityPage(c, outcome);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    c.status(ERRORS[error.code].status);
    return securityPage(c, { error, enrollment: await pendingEnrollment(c.get("services"), member(c)) });
  }
}

function text(c: DashboardContext): SecurityText {
  return TEXT[c.get("dashboard").language];
}

/** The page as the session now reads: after an action, its state is the database's, not the form's. */
async function securityPage(c: DashboardContext, state: PageState) {
  const t = text(c);
  const me = member(c);
  // The session was read before the action: recovery codes just made mean two-factor is on now.
  const on = me.twoFactorEnabled || state.recoveryCodes !== undefined;
  return renderPage(c, {
    title: t.title,
    section: "security",
    children: (
      <>
        {me.stage === "enroll" && !on ? (
          <p class="error" role="alert">
            {t.enrollRequired}
          </p>
        ) : null}
        <DoneNote text={state.done} />
        <ErrorNote c={c} error={state.error} />
        {state.recoveryCodes ? (
          <SecretOnce
            titleId="codes-title"
            valueId="recovery-codes"
            title={t.codesTitle}
            warning={t.codesWarning}
            value={state.recoveryCodes.join("\n")}
          />
        ) : null}
        <Card id="two-factor-title" title={t.setUpTitle}>
          <p id="two-factor-status">{on ? t.statusOn : t.statusOff}</p>
          {on ? (
            <OnForms c={c} t={t} required={me.requireTwoFactor} />
          ) : (
            <SetUp c={c} t={t} enrollment={state.enrollment} />
          )}
        </Card>
        {memberMay(c, "security:write") ? <Requirement c={c} t={t} required={me.requireTwoFactor} /> : null}
      </>
    ),
  });
}

function SetUp(props: { c: DashboardContext; t: SecurityText; enrollment?: Enrollment }) {
  const { c, t, enrollment } = props;
  if (!enrollment) {
    return (
      <>
        <p>{t.setUpIntro}</p>
        <PostButton c={c} action={`${SECURITY_PATH}/two-factor/start`}>
          {t.start}
        </PostButton>
      </>
    );
  }
  const qr = `data:image/svg+xml;base64,${btoa(renderSVG(enrollment.uri))}`;
  return (
    <>
      <p>{t.scan}</p>
      <img id="two-factor-qr" src={qr} alt={t.secret} width={200} height={200} />
      <p>
        {t.secret}: <code id="two-factor-secret">{enrollment.secret}</code>
      </p>
      <CodeForm
        c={c}
        t={t}
        action={`${SECURITY_PATH}/two-factor/confirm`}
        label={t.confirmCode}
        submit={t.confirm}
      />
    </>
  );
}

function OnForms(props: { c: DashboardContext; t: SecurityText; required: boolean }) {
  const { c, t } = props;
  return (
    <>
      <h3>{t.regenerateTitle}</h3>
      <CodeForm
        c={c}
        t={t}
        id="regenerate"
        action={`${SECURITY_PATH}/recovery-codes`}
        label={t.code}
        submit={t.regenerate}
      />
      <h3>{t.disableTitle}</h3>
      {props.required ? (
        <p class="note">{t.requiredNote}</p>
      ) : (
        <CodeForm
          c={c}
          t={t}
          id="disable"
          action={`${SECURITY_PATH}/two-factor/disable`}
          label={t.code}
          submit={t.disable}
        />
      )}
    </>
  );
}

function CodeForm(props: {
  c: DashboardContext;
  t: SecurityText;
  action: string;
  label: string;
  submit: string;
  id?: string;
}) {
  const id = `${props.id ?? "confirm"}-code`;
  return (
    <form method="post" action={props.action}>
      <CsrfField c={props.c} />
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name="code"
        type="text"
        inputmode="numeric"
        autocomplete="one-time-code"
        maxlength={6}
        required
      />
      <div class="actions">
        <button type="submit">{props.submit}</button>
      </div>
    </form>
  );
}

function Requirement(props: { c: DashboardContext; t: SecurityText; required: boolean }) {
  const { c, t, required } = props;
  return (
    <Card id="requirement-title" title={t.requirementTitle}>
      <p id="requirement-status">{required ? t.requirementOn : t.requirementOff}</p>
      <form method="post" action={`${SECURITY_PATH}/requirement`}>
        <CsrfField c={c} />
        <input type="hidden" name="required" value={required ? "off" : "on"} />
        <div class="actions">
          <button type="submit" class={required ? "secondary" : undefined}>
            {required ? t.stopRequiring : t.require}
          </button>
        </div>
      </form>
    </Card>
  );
}
