import type { PayoutQuote } from "@copm/integrations-sdk";
import type { Miniapp } from "./app";
import { $ } from "./dom";
import { resetRecipient } from "./recipient";
import { Refusal } from "./steps";

type Fee = PayoutQuote["fees"][number];

/** Steps 4 and 5: the pesos the recipient receives and the token paid with, then the quote for them. */
export function wireQuote(app: Miniapp) {
  const { state, say, steps, service, call, lang } = app;
  const { onClick, onSubmit, show } = steps;
  const copFormat = new Intl.NumberFormat(lang === "es" ? "es-CO" : "en-US");

  onSubmit("form-amount", "amount", "get-quote", async () => {
    const digits = $("amount", HTMLInputElement).value.replace(/[\s.,]/g, "");
    if (!/^[1-9]\d*$/.test(digits)) throw new Refusal(say("amountRequired"), { input: "amount" });
    // The page's radios carry exactly the quote's tokens; the service refuses any other.
    const token = (document.querySelector<HTMLInputElement>('input[name="token"]:checked')?.value ??
      "USDC") as PayoutQuote["fromToken"];
    const quote = await call(() =>
      service.quoteBrebPayout({ query: { destinationCop: digits, fromToken: token } }),
    );
    state.quote = quote;
    const fee = (type: Fee["type"]) => quote.fees.find((entry) => entry.type === type);
    const amount = (entry: Fee | undefined) => (entry ? `${entry.amount} ${entry.token}` : "—");
    $("quote-receives").textContent = `${copFormat.format(BigInt(quote.destinationCop))} COP`;
    $("quote-rate").textContent = quote.display;
    $("quote-service-fee").textContent = amount(fee("service"));
    $("quote-provider-fee").textContent = amount(fee("provider_developer"));
    $("quote-total").textContent = `${quote.sourceAmount} ${quote.fromToken}`;
    const minutes = Math.max(
      1,
      Math.round((Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)) / 60000),
    );
    $("quote-valid").textContent = say("validFor", { minutes });
    show("quote");
  });

  onClick("quote-change", "quote", async () => show("amount"));
  onClick("quote-continue", "quote", async () => {
    resetRecipient();
    show("recipient");
  });
}
