// The BRE-B miniapp's one client script (GET /miniapp loads it from /miniapp/miniapp.js, a static
// asset of this worker that dev/docs-assets.mjs bundles into dist/assets; never a CDN). It walks the
// user through the key-less `/api/breb/*` routes with the partner SDK's miniapp client: wallet and
// email, the code, KYC, the quote, the recipient, the payout, the two wallet transactions sent
// exactly as the service planned them, the confirmation by hash, and the payout's live status.
// This entry reads the page's words and language and wires the steps in order; each step is a
// module of this directory.
import type { Miniapp } from "./app";
import { wireDeposit } from "./deposit";
import { wireIdentity } from "./identity";
import { wireKyc } from "./kyc";
import { wireQuote } from "./quote";
import { wireRecipient } from "./recipient";
import { serviceOf } from "./service";
import { newState } from "./state";
import { wireStatus } from "./status";
import { stepsOf } from "./steps";
import { type ClientText, sayer } from "./text";
import { injectedWallet } from "./wallet";

(() => {
  const root = document.getElementById("miniapp");
  const textBlock = document.getElementById("miniapp-text");
  if (!root || !textBlock) return;
  const text: ClientText = JSON.parse(textBlock.textContent || "{}");
  const lang = root.dataset.lang === "en" ? "en" : "es";
  const say = sayer(text);
  const state = newState();
  const wallet = injectedWallet(say);
  const app: Miniapp = {
    lang,
    text,
    say,
    state,
    steps: stepsOf(say),
    wallet,
    ...serviceOf({ lang, state, wallet, say }),
  };
  wireIdentity(app);
  wireKyc(app);
  wireQuote(app);
  wireRecipient(app);
  wireDeposit(app);
  wireStatus(app);
})();
