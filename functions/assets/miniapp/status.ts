import type { Payout } from "@copm/integrations-sdk";
import type { Miniapp } from "./app";
import { $ } from "./dom";

/** Statuses after which the payout never moves again (failed still moves on to refunded). */
const FINAL = new Set<Payout["status"]>(["completed", "refunded", "expired", "refund_required"]);
const POLL_MS = 1500;

/** Step 8: the payout's live status; another payout from the amount on. */
export function wireStatus(app: Miniapp) {
  const { state, steps } = app;
  steps.onClick("new-payout", "status", async () => {
    clearTimeout(state.payoutTimer);
    state.quote = null;
    state.creation = null;
    state.sent = [];
    $("payout-status").removeAttribute("data-status");
    $("amount", HTMLInputElement).value = "";
    steps.show("amount");
  });
}

function statusLabel(app: Miniapp, status: string) {
  return app.text[`status_${status}`] ? app.say(`status_${status}`) : status;
}

export function renderStatus(app: Miniapp, payout: Payout) {
  const line = $("payout-status");
  if (line.dataset.status !== payout.status) {
    line.dataset.status = payout.status;
    line.textContent = statusLabel(app, payout.status);
  }
  $("payout-id").textContent = payout.payoutId;
  const paid = Boolean(payout.brebTransactionId);
  $("breb-tx-label").hidden = !paid;
  $("breb-tx").hidden = !paid;
  $("breb-tx").textContent = payout.brebTransactionId ?? "";
  const timeline = $("payout-timeline");
  timeline.replaceChildren(
    ...payout.timeline.map((entry) => {
      const item = document.createElement("li");
      const time = new Date(entry.at).toLocaleTimeString(app.lang === "es" ? "es-CO" : "en-US");
      item.textContent = `${time} · ${statusLabel(app, entry.status)}`;
      return item;
    }),
  );
}

/** Polls the payout until it reaches a final status, rendering each answer. */
export function watchPayout(app: Miniapp, payoutId: string) {
  const { state, steps, service, call } = app;
  clearTimeout(state.payoutTimer);
  const tick = async () => {
    try {
      const payout = await call(() => service.getBrebPayout({ path: { payoutId } }));
      steps.clearError("status");
      renderStatus(app, payout);
      if (FINAL.has(payout.status)) return;
    } catch (error) {
      steps.showError("status", steps.messageOf(error));
    }
    state.payoutTimer = setTimeout(tick, POLL_MS);
  };
  state.payoutTimer = setTimeout(tick, POLL_MS);
}
