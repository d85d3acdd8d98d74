import type { Child, JSXNode } from "hono/jsx";
import { jsx } from "hono/jsx";
import type { Language } from "../../lib/errors/error-body";
import { BREB_MINIAPP_PREFIX } from "../../lib/http/miniapp";
import { MINIAPP_TEXT, type MiniappText } from "./texts";

/** The page's one script: a static asset of this worker (dev/docs-assets.mjs copies it), never a CDN. */
export const MINIAPP_SCRIPT_PATH = "/miniapp/miniapp.js";
export const MINIAPP_PATH = "/miniapp";

// The project's tsconfig has no JSX setting, so the page calls hono/jsx's element factory directly.
type Props = Record<string, unknown>;
const h = (tag: string, props: Props | null, ...children: Child[]): JSXNode => jsx(tag, props, ...children);

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

function field(id: string, label: string, input: Props, hint?: string): JSXNode {
  const hintId = hint ? `${id}-hint` : undefined;
  return h(
    "div",
    null,
    h("label", { for: id }, label),
    h("input", { id, name: id, type: "text", ...input, ...(hintId ? { "aria-describedby": hintId } : {}) }),
    hint ? h("p", { id: hintId, class: "hint" }, hint) : null,
  );
}

function step(id: string, heading: string, visible: boolean, ...children: Child[]): JSXNode {
  return h(
    "section",
    { id: `step-${id}`, class: "step", "aria-labelledby": `h-${id}`, hidden: !visible },
    h("h2", { id: `h-${id}`, tabindex: "-1" }, heading),
    ...children,
    h("p", { class: "error", role: "alert", "data-error": "", hidden: true }),
  );
}

const button = (id: string, text: string, kind: "primary" | "secondary", type = "button") =>
  h("button", { id, type, class: kind }, text);

function steps(t: MiniappText["page"]): JSXNode[] {
  return [
    step(
      "identity",
      t.identityHeading,
      true,
      h("p", null, t.identityIntro),
      h("div", { class: "actions" }, button("connect", t.connect, "secondary")),
      h(
        "form",
        { id: "form-identity", novalidate: true },
        field(
          "wallet",
          t.walletLabel,
          { readonly: true, placeholder: "0x…", autocomplete: "off", spellcheck: "false" },
          t.walletHint,
        ),
        field("email", t.emailLabel, { type: "email", autocomplete: "email", inputmode: "email" }),
        h("div", { class: "actions" }, button("send-code", t.sendCode, "primary", "submit")),
      ),
    ),
    step(
      "code",
      t.codeHeading,
      false,
      h("p", { id: "code-sent", class: "note" }),
      h("p", { id: "debug-code", class: "debug", hidden: true }),
      h(
        "form",
        { id: "form-code", novalidate: true },
        field(
          "code",
          t.codeLabel,
          { inputmode: "numeric", autocomplete: "one-time-code", maxlength: "6", pattern: "[0-9]{6}" },
          t.codeHint,
        ),
        h(
          "div",
          { class: "actions" },
          button("verify", t.verify, "primary", "submit"),
          button("resend", t.resend, "secondary"),
        ),
      ),
    ),
    step(
      "kyc",
      t.kycHeading,
      false,
      h("p", { id: "kyc-status", class: "status", role: "status" }),
      h(
        "p",
        { id: "kyc-links", class: "links", hidden: true },
        h("a", { id: "kyc-link", href: "#", target: "_blank", rel: "noopener" }, t.kycLink),
        h("a", { id: "terms-link", href: "#", target: "_blank", rel: "noopener" }, t.termsLink),
      ),
      h(
        "div",
        { class: "actions" },
        button("kyc-continue", t.continue, "primary"),
        button("kyc-recheck", t.kycRecheck, "secondary"),
      ),
    ),
    step(
      "amount",
      t.amountHeading,
      false,
      h(
        "form",
        { id: "form-amount", novalidate: true },
        field(
          "amount",
          t.amountLabel,
          { inputmode: "numeric", autocomplete: "off", placeholder: "100.000" },
          t.amountHint,
        ),
        h(
          "fieldset",
          null,
          h("legend", null, t.tokenLegend),
          h(
            "div",
            { class: "choice" },
            h(
              "label",
              null,
              h("input", { type: "radio", name: "token", value: "USDC", checked: true }),
              "USDC",
            ),
            h("label", null, h("input", { type: "radio", name: "token", value: "COPm" }), "COPm"),
          ),
        ),
        h("div", { class: "actions" }, button("get-quote", t.getQuote, "primary", "submit")),
      ),
    ),
    step(
      "quote",
      t.quoteHeading,
      false,
      h(
        "dl",
        null,
        h("dt", null, t.quoteReceives),
        h("dd", { id: "quote-receives" }),
        h("dt", null, t.quoteRate),
        h("dd", { id: "quote-rate" }),
        h("dt", null, t.quoteServiceFee),
        h("dd", { id: "quote-service-fee" }),
        h("dt", null, t.quoteProviderFee),
        h("dd", { id: "quote-provider-fee" }),
        h("dt", { class: "total" }, t.quoteTotal),
        h("dd", { id: "quote-total", class: "total" }),
        h("dt", null, t.quoteValid),
        h("dd", { id: "quote-valid" }),
      ),
      h(
        "div",
        { class: "actions" },
        button("quote-continue", t.continue, "primary"),
        button("quote-change", t.changeAmount, "secondary"),
      ),
    ),
    step(
      "recipient",
      t.recipientHeading,
      false,
      h(
        "form",
        { id: "form-recipient", novalidate: true },
        field(
          "breb-key",
          t.keyLabel,
          { autocomplete: "off", autocapitalize: "none", spellcheck: "false" },
          t.keyHint,
        ),
        field("owner-name", t.ownerLabel, { autocomplete: "name" }, t.ownerHint),
        h(
          "div",
          { class: "actions" },
          button("create-payout", t.createPayout, "primary", "submit"),
          button("recipient-change", t.changeAmount, "secondary"),
        ),
      ),
      h(
        "div",
        { id: "mismatch", class: "warning", role: "alert", hidden: true },
        h("h3", null, t.mismatchHeading),
        h("p", null, t.mismatchBody),
        h("div", { class: "actions" }, button("mismatch-restart", t.startOver, "secondary")),
      ),
    ),
    step(
      "deposit",
      t.depositHeading,
      false,
      h("p", null, t.depositIntro),
      h(
        "dl",
        null,
        h("dt", { class: "total" }, t.depositTotal),
        h("dd", { id: "deposit-total", class: "total" }),
        h("dt", null, t.depositTo),
        h("dd", { id: "deposit-recipient" }),
        h("dt", null, t.depositChain),
        h("dd", { id: "deposit-chain" }),
      ),
      h("p", { id: "deposit-deadline", class: "note" }),
      h("h3", null, t.depositStepsHeading),
      h(
        "ol",
        { class: "txs" },
        h(
          "li",
          null,
          t.stepApprove,
          h("span", { id: "tx-approve", class: "tx-state", "aria-live": "polite" }),
        ),
        h(
          "li",
          null,
          t.stepDeposit,
          h("span", { id: "tx-deposit", class: "tx-state", "aria-live": "polite" }),
        ),
      ),
      h("div", { class: "actions" }, button("pay", t.pay, "primary")),
    ),
    step(
      "status",
      t.statusHeading,
      false,
      h("p", { id: "payout-status", class: "status", role: "status" }),
      h(
        "dl",
        null,
        h("dt", null, t.statusPayout),
        h("dd", { id: "payout-id", class: "mono" }),
        h("dt", { id: "breb-tx-label", hidden: true }, t.statusTransaction),
        h("dd", { id: "breb-tx", class: "mono", hidden: true }),
      ),
      h("h3", null, t.statusTimeline),
      h("ol", { id: "payout-timeline", class: "timeline" }),
      h("div", { class: "actions" }, button("new-payout", t.newPayout, "secondary")),
    ),
  ];
}

/** The whole document, server-rendered; the script reveals one step at a time. */
export async function renderMiniappPage(language: Language): Promise<string> {
  const text = MINIAPP_TEXT[language];
  const t = text.page;
  const other: Language = language === "es" ? "en" : "es";
  // Inside <script> nothing is entity-decoded: the JSON goes in raw, with `<` escaped so no
  // text can close the element.
  const clientText = JSON.stringify({ ...text.client, progress: t.progress }).replaceAll("<", "\\u003c");
  const document = h(
    "html",
    { lang: language },
    h(
      "head",
      null,
      h("meta", { charset: "utf-8" }),
      h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      h("meta", { name: "color-scheme", content: "light" }),
      h("title", null, `${t.title} · COPm`),
      h("style", { dangerouslySetInnerHTML: { __html: STYLE } }),
    ),
    h(
      "body",
      null,
      h(
        "header",
        { class: "top" },
        h("p", { class: "brand" }, "COPm · BRE-B"),
        h(
          "a",
          {
            href: `${MINIAPP_PATH}?lang=${other}`,
            hreflang: other,
            lang: other,
            "aria-label": t.otherLanguageLabel,
          },
          t.otherLanguage,
        ),
      ),
      h(
        "main",
        { id: "miniapp", "data-api": BREB_MINIAPP_PREFIX, "data-lang": language },
        h("h1", null, t.title),
        h("p", { class: "lead" }, t.lead),
        h("p", { class: "badge" }, t.mockBadge),
        h("noscript", null, h("p", { class: "error" }, t.noscript)),
        h("p", { id: "progress", class: "progress" }, t.progress.replace("{step}", "1")),
        ...steps(t),
      ),
      h("script", {
        id: "miniapp-text",
        type: "application/json",
        dangerouslySetInnerHTML: { __html: clientText },
      }),
      h("script", { src: MINIAPP_SCRIPT_PATH, defer: true }),
    ),
  );
  return `<!doctype html>${await document.toString()}`;
}
