import type { Child, JSX } from "hono/jsx";
import { MINIAPP_PATH } from "../../lib/http/pages";
import type { Language } from "../../lib/kernel/errors/error-body";
import { MINIAPP_TEXT, type MiniappText } from "./texts";

/** The page's one script: a static asset of this worker (dev/docs-assets.mjs bundles it), never a CDN. */
export const MINIAPP_SCRIPT_PATH = "/miniapp/miniapp.js";

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f3f4f6}
.top{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.75rem 1rem;background:#0b3d6b;color:#fff}
.brand{margin:0;font-weight:700;letter-spacing:.02em}
.top a{color:#fff;text-decoration:underline;padding:.5rem;min-height:44px;display:inline-flex;align-items:center}
main{max-width:34rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;line-height:1.2;margin:.5rem 0}
.lead{margin:0 0 .75rem}
.badge{display:inline-block;margin:0 0 1rem;padding:.25rem .6rem;border-radius:999px;background:#fff4d6;color:#5c3c00;font-size:.875rem;border:1px solid #b7791f}
.progress{margin:0 0 .5rem;font-weight:600;color:#374151}
.step{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);margin-bottom:1rem}
.step h2{font-size:1.3rem;margin:0 0 .75rem;line-height:1.25}
.step h2:focus{outline:none}
.step h2:focus-visible{outline:3px solid #111827;outline-offset:2px}
label,legend{display:block;font-weight:600;margin:.75rem 0 .25rem}
fieldset{border:0;margin:0;padding:0}
.hint{margin:.25rem 0 0;font-size:.875rem;color:#4b5563}
input[type=text],input[type=email]{width:100%;min-height:44px;padding:.5rem .75rem;font:inherit;color:#111827;background:#fff;border:1px solid #6b7280;border-radius:8px}
input[readonly]{background:#f3f4f6;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem}
input[aria-invalid=true]{border-color:#b00020;border-width:2px}
.choice{display:flex;gap:.75rem;flex-wrap:wrap}
.choice label{display:flex;align-items:center;gap:.5rem;font-weight:500;margin:0;min-height:44px;padding:0 1rem;border:1px solid #6b7280;border-radius:8px;cursor:pointer}
.choice input{width:1.25rem;height:1.25rem;margin:0;accent-color:#0b4f8a}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;min-height:44px;padding:.6rem 1.2rem;border-radius:8px;cursor:pointer;border:2px solid #0b4f8a}
button.primary{background:#0b4f8a;color:#fff}
button.secondary{background:#fff;color:#0b4f8a}
button:disabled{opacity:.55;cursor:not-allowed}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #111827;outline-offset:2px}
.error{margin:1rem 0 0;padding:.75rem 1rem;border-left:4px solid #b00020;background:#fdecee;color:#7a0014}
.note{margin:.75rem 0 0;padding:.75rem 1rem;border-left:4px solid #0b4f8a;background:#eef5fc}
.debug{margin:.75rem 0 0;padding:.75rem 1rem;border:2px dashed #0b4f8a;background:#f4f9ff;font-weight:600}
.debug strong{font-family:ui-monospace,Menlo,monospace;font-size:1.25rem;letter-spacing:.15em}
.warning{margin:1rem 0 0;padding:1rem;border:3px solid #b42318;border-radius:8px;background:#fff1f0}
.warning h3{margin:0 0 .5rem;font-size:1.2rem;color:#8f1d14}
.warning p{margin:0}
.links{display:flex;flex-wrap:wrap;gap:1rem;margin:.75rem 0 0}
.links a{color:#0b4f8a;font-weight:600;min-height:44px;display:inline-flex;align-items:center}
dl{display:grid;grid-template-columns:minmax(0,1.1fr) minmax(0,1fr);gap:.5rem 0;margin:0}
dt{color:#374151;padding-right:1rem}
dd{margin:0;text-align:right;font-variant-numeric:tabular-nums;font-weight:600;overflow-wrap:anywhere}
dl .total{border-top:1px solid #d1d5db;padding-top:.5rem;font-size:1.1rem;color:#111827}
.mono{font-family:ui-monospace,Menlo,monospace;font-size:.8125rem;word-break:break-all}
ol.txs{padding-left:1.25rem;margin:.5rem 0 0}
ol.txs li{margin:.5rem 0}
.tx-state{display:block;font-size:.875rem;color:#374151}
.status{font-size:1.2rem;font-weight:700;margin:.25rem 0 1rem;padding:.75rem 1rem;border-radius:8px;background:#eef5fc;color:#0b3d6b}
.status[data-status=completed]{background:#e7f6ec;color:#14532d}
.status[data-status=failed],.status[data-status=refunded],.status[data-status=expired],.status[data-status=refund_required]{background:#fdecee;color:#7a0014}
ol.timeline{padding-left:1.25rem;margin:.5rem 0 0;font-size:.9375rem}
h3{font-size:1.05rem;margin:1rem 0 .25rem}
@media (min-width:48rem){main{max-width:40rem;padding:2rem 1rem}h1{font-size:2rem}.step{padding:1.75rem 2rem}}
`;

type PageText = MiniappText["page"];

/** A labelled text input, its hint (if any) tied to it with aria-describedby. */
function Field(props: { id: string; label: string; input: JSX.IntrinsicElements["input"]; hint?: string }) {
  const { id, hint } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label for={id}>{props.label}</label>
      <input id={id} name={id} type="text" {...props.input} aria-describedby={hintId} />
      {hint ? (
        <p id={hintId} class="hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** One step of the flow: a section the script reveals, headed by a focusable h2, ending in its error slot. */
function Step(props: { id: string; heading: string; visible?: boolean; children?: Child }) {
  const { id } = props;
  return (
    <section id={`step-${id}`} class="step" aria-labelledby={`h-${id}`} hidden={!props.visible}>
      <h2 id={`h-${id}`} tabindex={-1}>
        {props.heading}
      </h2>
      {props.children}
      <p class="error" role="alert" data-error="" hidden />
    </section>
  );
}

function Button(props: {
  id: string;
  kind: "primary" | "secondary";
  type?: "button" | "submit";
  text: string;
}) {
  return (
    <button id={props.id} type={props.type ?? "button"} class={props.kind}>
      {props.text}
    </button>
  );
}

function Steps({ t }: { t: PageText }) {
  return (
    <>
      <Step id="identity" heading={t.identityHeading} visible>
        <p>{t.identityIntro}</p>
        <div class="actions">
          <Button id="connect" kind="secondary" text={t.connect} />
        </div>
        <form id="form-identity" novalidate>
          <Field
            id="wallet"
            label={t.walletLabel}
            input={{ readonly: true, placeholder: "0x…", autocomplete: "off", spellcheck: false }}
            hint={t.walletHint}
          />
          <Field
            id="email"
            label={t.emailLabel}
            input={{ type: "email", autocomplete: "email", inputmode: "email" }}
          />
          <div class="actions">
            <Button id="send-code" kind="primary" type="submit" text={t.sendCode} />
          </div>
        </form>
      </Step>
      <Step id="code" heading={t.codeHeading}>
        <p id="code-sent" class="note" />
        <p id="debug-code" class="debug" hidden />
        <form id="form-code" novalidate>
          <Field
            id="code"
            label={t.codeLabel}
            input={{ inputmode: "numeric", autocomplete: "one-time-code", maxlength: 6, pattern: "[0-9]{6}" }}
            hint={t.codeHint}
          />
          <div class="actions">
            <Button id="verify" kind="primary" type="submit" text={t.verify} />
            <Button id="resend" kind="secondary" text={t.resend} />
          </div>
        </form>
      </Step>
      <Step id="kyc" heading={t.kycHeading}>
        <p id="kyc-status" class="status" role="status" />
        {/* The paragraph stays hidden until the script gives each link its real address (safeLink). */}
        <p id="kyc-links" class="links" hidden>
          {/* biome-ignore lint/a11y/useValidAnchor: a placeholder; the script sets the KYC address */}
          <a id="kyc-link" href="#" target="_blank" rel="noopener">
            {t.kycLink}
          </a>
          {/* biome-ignore lint/a11y/useValidAnchor: a placeholder; the script sets the terms address */}
          <a id="terms-link" href="#" target="_blank" rel="noopener">
            {t.termsLink}
          </a>
        </p>
        <div class="actions">
          <Button id="kyc-continue" kind="primary" text={t.continue} />
          <Button id="kyc-recheck" kind="secondary" text={t.kycRecheck} />
        </div>
      </Step>
      <Step id="amount" heading={t.amountHeading}>
        <form id="form-amount" novalidate>
          <Field
            id="amount"
            label={t.amountLabel}
            input={{ inputmode: "numeric", autocomplete: "off", placeholder: "100.000" }}
            hint={t.amountHint}
          />
          <fieldset>
            <legend>{t.tokenLegend}</legend>
            <div class="choice">
              <label>
                <input type="radio" name="token" value="USDC" checked />
                USDC
              </label>
              <label>
                <input type="radio" name="token" value="COPm" />
                COPm
              </label>
            </div>
          </fieldset>
          <div class="actions">
            <Button id="get-quote" kind="primary" type="submit" text={t.getQuote} />
          </div>
        </form>
      </Step>
      <Step id="quote" heading={t.quoteHeading}>
        <dl>
          <dt>{t.quoteReceives}</dt>
          <dd id="quote-receives" />
          <dt>{t.quoteRate}</dt>
          <dd id="quote-rate" />
          <dt>{t.quoteServiceFee}</dt>
          <dd id="quote-service-fee" />
          <dt>{t.quoteProviderFee}</dt>
          <dd id="quote-provider-fee" />
          <dt class="total">{t.quoteTotal}</dt>
          <dd id="quote-total" class="total" />
          <dt>{t.quoteValid}</dt>
          <dd id="quote-valid" />
        </dl>
        <div class="actions">
          <Button id="quote-continue" kind="primary" text={t.continue} />
          <Button id="quote-change" kind="secondary" text={t.changeAmount} />
        </div>
      </Step>
      <Step id="recipient" heading={t.recipientHeading}>
        <form id="form-recipient" novalidate>
          <Field
            id="breb-key"
            label={t.keyLabel}
            input={{ autocomplete: "off", autocapitalize: "none", spellcheck: false }}
            hint={t.keyHint}
          />
          <Field id="owner-name" label={t.ownerLabel} input={{ autocomplete: "name" }} hint={t.ownerHint} />
          <div class="actions">
            <Button id="create-payout" kind="primary" type="submit" text={t.createPayout} />
            <Button id="recipient-change" kind="secondary" text={t.changeAmount} />
          </div>
        </form>
        <div id="mismatch" class="warning" role="alert" hidden>
          <h3>{t.mismatchHeading}</h3>
          <p>{t.mismatchBody}</p>
          <div class="actions">
            <Button id="mismatch-restart" kind="secondary" text={t.startOver} />
          </div>
        </div>
      </Step>
      <Step id="deposit" heading={t.depositHeading}>
        <p>{t.depositIntro}</p>
        <dl>
          <dt class="total">{t.depositTotal}</dt>
          <dd id="deposit-total" class="total" />
          <dt>{t.depositTo}</dt>
          <dd id="deposit-recipient" />
          <dt>{t.depositChain}</dt>
          <dd id="deposit-chain" />
        </dl>
        <p id="deposit-deadline" class="note" />
        <h3>{t.depositStepsHeading}</h3>
        <ol class="txs">
          <li>
            {t.stepApprove}
            <span id="tx-approve" class="tx-state" aria-live="polite" />
          </li>
          <li>
            {t.stepDeposit}
            <span id="tx-deposit" class="tx-state" aria-live="polite" />
          </li>
        </ol>
        <div class="actions">
          <Button id="pay" kind="primary" text={t.pay} />
        </div>
      </Step>
      <Step id="status" heading={t.statusHeading}>
        <p id="payout-status" class="status" role="status" />
        <dl>
          <dt>{t.statusPayout}</dt>
          <dd id="payout-id" class="mono" />
          <dt id="breb-tx-label" hidden>
            {t.statusTransaction}
          </dt>
          <dd id="breb-tx" class="mono" hidden />
        </dl>
        <h3>{t.statusTimeline}</h3>
        <ol id="payout-timeline" class="timeline" />
        <div class="actions">
          <Button id="new-payout" kind="secondary" text={t.newPayout} />
        </div>
      </Step>
    </>
  );
}

/** The whole document, server-rendered; the script reveals one step at a time. */
export async function renderMiniappPage(language: Language): Promise<string> {
  const text = MINIAPP_TEXT[language];
  const t = text.page;
  const other: Language = language === "es" ? "en" : "es";
  // Inside <script> nothing is entity-decoded: the JSON goes in raw, with `<` escaped so no
  // text can close the element.
  const clientText = JSON.stringify({ ...text.client, progress: t.progress }).replaceAll("<", "\\u003c");
  const document = (
    <html lang={language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{`${t.title} · COPm`}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <header class="top">
          <p class="brand">COPm · BRE-B</p>
          <a
            href={`${MINIAPP_PATH}?lang=${other}`}
            hreflang={other}
            lang={other}
            aria-label={t.otherLanguageLabel}
          >
            {t.otherLanguage}
          </a>
        </header>
        <main id="miniapp" data-lang={language}>
          <h1>{t.title}</h1>
          <p class="lead">{t.lead}</p>
          <p class="badge">{t.mockBadge}</p>
          <noscript>
            <p class="error">{t.noscript}</p>
          </noscript>
          <p id="progress" class="progress">
            {t.progress.replace("{step}", "1")}
          </p>
          <Steps t={t} />
        </main>
        <script id="miniapp-text" type="application/json" dangerouslySetInnerHTML={{ __html: clientText }} />
        <script src={MINIAPP_SCRIPT_PATH} defer />
      </body>
    </html>
  );
  return `<!doctype html>${await document.toString()}`;
}
