import type { Kyc } from "@copm/integrations-sdk";
import type { Miniapp } from "./app";
import { $ } from "./dom";

const KYC_POLL_MS = 5000;

/** Step 3: the user's KYC, rechecked while it is pending; the payout steps once it is approved. */
export function wireKyc(app: Miniapp) {
  const { onClick, show } = app.steps;
  onClick("kyc-recheck", "kyc", () => refreshKyc(app));
  onClick("kyc-continue", "kyc", async () => {
    clearTimeout(app.state.kycTimer);
    show("amount");
  });
}

export function showKyc(app: Miniapp, kyc: Kyc | undefined) {
  app.steps.show("kyc");
  renderKyc(app, kyc);
}

/** Shows a link only to an http(s) address; says whether it did. */
function safeLink(id: string, href: string | undefined): boolean {
  const link = $(id, HTMLAnchorElement);
  let url: URL | null = null;
  try {
    url = href ? new URL(href) : null;
  } catch {
    url = null;
  }
  const usable = url !== null && (url.protocol === "https:" || url.protocol === "http:");
  link.hidden = !usable;
  if (usable && url) link.href = url.href;
  return usable;
}

function renderKyc(app: Miniapp, kyc: Kyc | undefined) {
  const { state, say } = app;
  const status = kyc?.status ?? "not_started";
  const line = $("kyc-status");
  line.dataset.status = status;
  line.textContent = say(`kyc_${status}`);
  const approved = status === "approved";
  const kycLink = !approved && safeLink("kyc-link", kyc?.kycLink);
  const termsLink = !approved && safeLink("terms-link", kyc?.termsLink);
  $("kyc-links").hidden = !(kycLink || termsLink);
  $("kyc-continue").hidden = !approved;
  $("kyc-recheck").hidden = approved || status === "rejected";
  clearTimeout(state.kycTimer);
  if (status === "pending" || status === "not_started") {
    state.kycTimer = setTimeout(() => refreshKyc(app), KYC_POLL_MS);
  }
}

async function refreshKyc(app: Miniapp) {
  const { state, steps, service, call } = app;
  if ($("step-kyc").hidden) return;
  try {
    const answer = await call(() => service.getBrebKyc({ query: { userAddress: state.address } }));
    steps.clearError("kyc");
    renderKyc(app, answer.kyc);
  } catch (error) {
    steps.showError("kyc", steps.messageOf(error));
  }
}
