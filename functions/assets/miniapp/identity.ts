import type { Miniapp } from "./app";
import { $ } from "./dom";
import { showKyc } from "./kyc";
import { Refusal } from "./steps";
import { checksummed } from "./wallet";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Steps 1 and 2: the wallet (signed in) and the email, then the code sent to it. */
export function wireIdentity(app: Miniapp) {
  const { state, say, steps, wallet, service, call, signIn } = app;
  const { onClick, onSubmit, show } = steps;

  onClick("connect", "identity", async () => {
    const accounts = await wallet.request({ method: "eth_requestAccounts" });
    const first: unknown = Array.isArray(accounts) ? accounts[0] : undefined;
    if (typeof first !== "string" || !ADDRESS.test(first)) throw new Refusal(say("noWallet"));
    state.address = checksummed(first);
    state.walletSession = "";
    await signIn();
    $("wallet", HTMLInputElement).value = state.address;
    $("email").focus();
  });

  async function sendCode() {
    const sent = await call(() =>
      service.sendBrebOtp({ body: { email: state.email, userAddress: state.address } }),
    );
    $("code-sent").textContent = say("codeSentTo", { email: state.email });
    const debug = $("debug-code");
    if (typeof sent.debugCode === "string") {
      debug.textContent = say("debugCode", { code: "" });
      const code = document.createElement("strong");
      code.textContent = sent.debugCode;
      debug.append(code);
      debug.hidden = false;
    } else {
      debug.hidden = true;
    }
  }

  onSubmit("form-identity", "identity", "send-code", async () => {
    if (!state.address) throw new Refusal(say("connectFirst"));
    const email = $("email", HTMLInputElement).value.trim();
    if (!email) throw new Refusal(say("emailRequired"), { input: "email" });
    state.email = email;
    await sendCode();
    $("code", HTMLInputElement).value = "";
    show("code");
  });

  onClick("resend", "code", sendCode);

  onSubmit("form-code", "code", "verify", async () => {
    const code = $("code", HTMLInputElement).value.replace(/\s/g, "");
    if (!/^\d{6}$/.test(code)) throw new Refusal(say("codeRequired"), { input: "code" });
    const verified = await call(() =>
      service.verifyBrebOtp({ body: { email: state.email, userAddress: state.address, code } }),
    );
    showKyc(app, verified.kyc);
  });
}
