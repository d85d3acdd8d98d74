import { CopmApiError, type ErrorCode } from "@copm/integrations-sdk";
import { $ } from "./dom";
import type { Say } from "./text";

/** The flow's steps in order: each a `step-<name>` section headed by a focusable `h-<name>`. */
const STEPS = ["identity", "code", "kyc", "amount", "quote", "recipient", "deposit", "status"] as const;
type StepName = (typeof STEPS)[number];

/** The inputs a refusal can be about (marked aria-invalid). */
export type InputId = "email" | "code" | "amount" | "breb-key" | "owner-name";

/** The page's own codes: none, or the wallet's refusal of a request (EIP-1193 4001). */
type RefusalCode = "" | "WALLET_4001";

/** What the page itself refuses (an empty field, a wallet's refusal), said in the step's alert. */
export class Refusal extends Error {
  readonly code: RefusalCode;
  readonly input: InputId | "";
  /** The wallet's own error code, when the wallet answered a request with an error. */
  readonly walletCode: unknown;
  constructor(
    message: string,
    options: { code?: RefusalCode; input?: InputId | ""; walletCode?: unknown } = {},
  ) {
    super(message);
    this.code = options.code ?? "";
    this.input = options.input ?? "";
    this.walletCode = options.walletCode;
  }
}

/** Which input an API refusal is about, by the body's field or the error's code. */
const FIELD_INPUTS: Partial<Record<string, InputId>> = {
  email: "email",
  code: "code",
  destinationCop: "amount",
  breBKey: "breb-key",
  accountOwnerName: "owner-name",
};
const CODE_INPUTS: Partial<Record<ErrorCode | RefusalCode, InputId>> = {
  INVALID_EMAIL: "email",
  OTP_INVALID: "code",
  OTP_EXPIRED: "code",
  INVALID_AMOUNT: "amount",
  BELOW_MINIMUM: "amount",
  ABOVE_MAXIMUM: "amount",
  INVALID_BREB_KEY: "breb-key",
};

/** One step's work: whatever it throws is said in the step's alert. */
type Work = () => Promise<void>;

/** The steps, their errors and their busy buttons. */
export interface Steps {
  /** Reveals this step alone, says which it is, and moves the focus to its heading. */
  show(name: StepName): void;
  showError(step: StepName, message: string): void;
  clearError(step: StepName): void;
  /** What the user is told: the service's own message (in the page's language), else the page's. */
  messageOf(error: unknown): string;
  onSubmit(formId: string, step: StepName, buttonId: string, work: Work): void;
  onClick(buttonId: string, step: StepName, work: Work): void;
}

export function stepsOf(say: Say): Steps {
  function show(name: StepName) {
    for (const step of STEPS) $(`step-${step}`).hidden = step !== name;
    $("progress").textContent = say("progress", { step: STEPS.indexOf(name) + 1 });
    clearError(name);
    $(`h-${name}`).focus();
  }

  function errorSlot(step: StepName): HTMLElement {
    const slot = $(`step-${step}`).querySelector<HTMLElement>("[data-error]");
    if (!slot) throw new Error(`#step-${step} has no error slot`);
    return slot;
  }

  function showError(step: StepName, message: string) {
    const slot = errorSlot(step);
    slot.textContent = message;
    slot.hidden = false;
  }

  function clearError(step: StepName) {
    const slot = errorSlot(step);
    slot.textContent = "";
    slot.hidden = true;
    for (const input of $(`step-${step}`).querySelectorAll("[aria-invalid]"))
      input.removeAttribute("aria-invalid");
  }

  function messageOf(error: unknown): string {
    if (error instanceof CopmApiError) return error.details.message ?? say("network");
    return error instanceof Error ? error.message : String(error);
  }

  /** Runs a step's work with its button busy; whatever goes wrong is said in the step's alert. */
  async function run(step: StepName, button: HTMLButtonElement, work: Work) {
    clearError(step);
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await work();
    } catch (error) {
      showError(step, messageOf(error));
      const inputs = new Set<InputId>();
      if (error instanceof Refusal && error.input) inputs.add(error.input);
      if (error instanceof Refusal || error instanceof CopmApiError) {
        const input = CODE_INPUTS[error.code];
        if (input) inputs.add(input);
      }
      if (error instanceof CopmApiError) {
        for (const problem of error.problems) {
          const input = FIELD_INPUTS[String(problem.field ?? "").replace(/^body\.|^query\./, "")];
          if (input) inputs.add(input);
        }
      }
      for (const id of inputs) document.getElementById(id)?.setAttribute("aria-invalid", "true");
    } finally {
      // A step that ended locked (a destination mismatch) keeps its button off.
      button.disabled = button.dataset.locked === "true";
      button.removeAttribute("aria-busy");
    }
  }

  function onSubmit(formId: string, step: StepName, buttonId: string, work: Work) {
    $(formId).addEventListener("submit", (event) => {
      event.preventDefault();
      run(step, $(buttonId, HTMLButtonElement), work);
    });
  }

  function onClick(buttonId: string, step: StepName, work: Work) {
    const button = $(buttonId, HTMLButtonElement);
    button.addEventListener("click", () => run(step, button, work));
  }

  return { show, showError, clearError, messageOf, onSubmit, onClick };
}
