import { CopmApiError, type CreateBrebPayoutData, type PayoutCreation } from "@copm/integrations-sdk";
import type { Miniapp } from "./app";
import { renderDeposit } from "./deposit";
import { $ } from "./dom";
import { showKyc } from "./kyc";
import { Refusal } from "./steps";

/** Step 6: the recipient (BRE-B key and owner), and the payout created for them. */
export function wireRecipient(app: Miniapp) {
  const { state, say, steps, service, call } = app;
  const { onClick, onSubmit, show } = steps;

  /** The same body is the same creation: its Idempotency-Key is kept for the page's lifetime. */
  function idempotencyKeyFor(body: CreateBrebPayoutData["body"]) {
    const fingerprint = JSON.stringify(body);
    let key = state.idempotency.get(fingerprint);
    if (!key) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      key = `miniapp-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
      state.idempotency.set(fingerprint, key);
    }
    return key;
  }

  onSubmit("form-recipient", "recipient", "create-payout", async () => {
    const breBKey = $("breb-key", HTMLInputElement).value.trim();
    const accountOwnerName = $("owner-name", HTMLInputElement).value.trim();
    if (!breBKey || !accountOwnerName) throw new Refusal(say("recipientRequired"));
    if (!state.quote) throw new Error("no quote to pay");
    const body = { quoteId: state.quote.quoteId, userAddress: state.address, breBKey, accountOwnerName };
    let creation: PayoutCreation;
    try {
      creation = await call(() =>
        service.createBrebPayout({ body, headers: { "idempotency-key": idempotencyKeyFor(body) } }),
      );
    } catch (error) {
      if (error instanceof CopmApiError && error.code === "destination_mismatch") {
        // Nothing was created: the flow stops here, and the user is told to send nothing.
        $("mismatch").hidden = false;
        setRecipientLocked(true);
        $("mismatch-restart").focus();
        return;
      }
      if (error instanceof CopmApiError && error.code === "KYC_REQUIRED") {
        showKyc(app, { status: "not_started", ...error.details });
        return;
      }
      throw error;
    }
    state.creation = creation;
    state.sent = [];
    renderDeposit(app, creation);
    show("deposit");
  });

  onClick("recipient-change", "recipient", async () => show("amount"));
  onClick("mismatch-restart", "recipient", async () => {
    resetRecipient();
    $("breb-key", HTMLInputElement).value = "";
    $("owner-name", HTMLInputElement).value = "";
    state.quote = null;
    show("amount");
  });
}

function setRecipientLocked(locked: boolean) {
  $("breb-key", HTMLInputElement).disabled = locked;
  $("owner-name", HTMLInputElement).disabled = locked;
  const create = $("create-payout", HTMLButtonElement);
  create.disabled = locked;
  create.dataset.locked = String(locked);
}

/** The recipient step as new: no mismatch warning, its fields and button on. */
export function resetRecipient() {
  $("mismatch").hidden = true;
  setRecipientLocked(false);
}
