// The BRE-B miniapp's one client script (GET /miniapp loads it from /miniapp/miniapp.js, a static
// asset of this worker that dev/docs-assets.mjs bundles into dist/assets; never a CDN). It walks the
// user through the key-less `/api/breb/*` routes with the partner SDK's miniapp client: wallet and
// email, the code, KYC, the quote, the recipient, the payout, the two wallet transactions sent
// exactly as the service planned them, the confirmation by hash, and the payout's live status.
import { brebMiniapp, CopmApiError, planTransactions } from "@copm/integrations-sdk";
import { getAddress } from "viem";

(() => {
  const root = document.getElementById("miniapp");
  const textBlock = document.getElementById("miniapp-text");
  if (!root || !textBlock) return;
  const text = JSON.parse(textBlock.textContent || "{}");
  const lang = root.dataset.lang === "en" ? "en" : "es";

  const STEPS = ["identity", "code", "kyc", "amount", "quote", "recipient", "deposit", "status"];
  /** Statuses after which the payout never moves again (failed still moves on to refunded). */
  const FINAL = new Set(["completed", "refunded", "expired", "refund_required"]);
  const POLL_MS = 1500;
  const RECEIPT_POLL_MS = 1000;

  const state = {
    address: "",
    /** The wallet's session (Sign-In with Ethereum), sent with every call about the address. */
    walletSession: "",
    email: "",
    quote: null,
    creation: null,
    /** Hashes of the plan's steps already mined, so a retry never sends one twice. */
    sent: [],
    idempotency: new Map(),
    kycTimer: 0,
    payoutTimer: 0,
  };

  const $ = (id) => {
    const element = document.getElementById(id);
    if (!element) throw new Error(`#${id} is missing`);
    return element;
  };
  const say = (key, values = {}) =>
    String(text[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // ---- steps, errors, busy buttons -------------------------------------------------------------

  function show(name) {
    for (const step of STEPS) $(`step-${step}`).hidden = step !== name;
    $("progress").textContent = say("progress", { step: STEPS.indexOf(name) + 1 });
    clearError(name);
    $(`h-${name}`).focus();
  }

  function errorSlot(step) {
    return $(`step-${step}`).querySelector("[data-error]");
  }

  function showError(step, message) {
    const slot = errorSlot(step);
    slot.textContent = message;
    slot.hidden = false;
  }

  function clearError(step) {
    const slot = errorSlot(step);
    slot.textContent = "";
    slot.hidden = true;
    for (const input of $(`step-${step}`).querySelectorAll("[aria-invalid]"))
      input.removeAttribute("aria-invalid");
  }

  /** Which input an API refusal is about, by the body's field or the error's code. */
  const FIELD_INPUTS = {
    email: "email",
    code: "code",
    destinationCop: "amount",
    breBKey: "breb-key",
    accountOwnerName: "owner-name",
  };
  const CODE_INPUTS = {
    INVALID_EMAIL: "email",
    OTP_INVALID: "code",
    OTP_EXPIRED: "code",
    INVALID_AMOUNT: "amount",
    BELOW_MINIMUM: "amount",
    ABOVE_MAXIMUM: "amount",
    INVALID_BREB_KEY: "breb-key",
  };

  /** What the page itself refuses (an empty field, a wallet's refusal), said in the step's alert. */
  class Refusal extends Error {
    constructor(message, { code = "", input = "" } = {}) {
      super(message);
      this.code = code;
      this.input = input;
    }
  }

  /** What the user is told: the service's own message (in the page's language), else the page's. */
  function messageOf(error) {
    if (error instanceof CopmApiError) return error.details.message ?? say("network");
    return error instanceof Error ? error.message : String(error);
  }

  /** Runs a step's work with its button busy; whatever goes wrong is said in the step's alert. */
  async function run(step, button, work) {
    clearError(step);
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await work();
    } catch (error) {
      showError(step, messageOf(error));
      const inputs = new Set();
      if (error instanceof Refusal && error.input) inputs.add(error.input);
      if (error instanceof Refusal || error instanceof CopmApiError) {
        if (CODE_INPUTS[error.code]) inputs.add(CODE_INPUTS[error.code]);
      }
      if (error instanceof CopmApiError) {
        for (const problem of error.problems) {
          const name = String(problem.field ?? "").replace(/^body\.|^query\./, "");
          if (FIELD_INPUTS[name]) inputs.add(FIELD_INPUTS[name]);
        }
      }
      for (const id of inputs) document.getElementById(id)?.setAttribute("aria-invalid", "true");
    } finally {
      // A step that ended locked (a destination mismatch) keeps its button off.
      button.disabled = button.dataset.locked === "true";
      button.removeAttribute("aria-busy");
    }
  }

  function onSubmit(formId, step, buttonId, work) {
    $(formId).addEventListener("submit", (event) => {
      event.preventDefault();
      run(step, $(buttonId), work);
    });
  }

  function onClick(buttonId, step, work) {
    const button = $(buttonId);
    button.addEventListener("click", () => run(step, button, work));
  }

  // ---- the service ----------------------------------------------------------------------------

  const service = brebMiniapp({
    baseUrl: location.origin,
    language: lang,
    walletSession: () => state.walletSession || undefined,
  });

  /**
   * One call to the service; a wallet session that ran out (WALLET_SESSION_REQUIRED) is renewed by
   * asking the wallet to sign in again, once, and the call made again.
   */
  async function call(operation) {
    try {
      return (await operation()).data;
    } catch (error) {
      if (!(error instanceof CopmApiError) || error.code !== "WALLET_SESSION_REQUIRED" || !state.address)
        throw error;
      await signIn();
      return (await operation()).data;
    }
  }

  // ---- the injected wallet (EIP-1193) ---------------------------------------------------------

  async function eth(method, params) {
    const provider = window.ethereum;
    if (!provider || typeof provider.request !== "function") throw new Refusal(say("noWallet"));
    try {
      return await provider.request(params === undefined ? { method } : { method, params });
    } catch (error) {
      const code = error?.code;
      if (code === 4001) throw new Refusal(say("walletRejected"), { code: "WALLET_4001" });
      // Wallets' messages can run to many lines of detail: the first says what happened.
      const message = String(error?.message ?? error).split("\n")[0];
      const refusal = new Refusal(say("walletError", { message }));
      refusal.walletCode = code;
      throw refusal;
    }
  }

  const hexOf = (value) => `0x${BigInt(value).toString(16)}`;

  async function ensureChain(chainId, chainName) {
    if (Number.parseInt(await eth("eth_chainId"), 16) === chainId) return;
    try {
      await eth("wallet_switchEthereumChain", [{ chainId: hexOf(chainId) }]);
    } catch (error) {
      if (error.walletCode === 4902) throw new Refusal(say("unknownChain", { chain: chainName, chainId }));
      throw error;
    }
    if (Number.parseInt(await eth("eth_chainId"), 16) !== chainId) {
      throw new Refusal(say("stillWrongChain", { chain: chainName, chainId }));
    }
  }

  async function waitForReceipt(hash) {
    for (;;) {
      const receipt = await eth("eth_getTransactionReceipt", [hash]);
      if (receipt) return receipt;
      await sleep(RECEIPT_POLL_MS);
    }
  }

  /** EIP-55: wallets often answer lower-case addresses; the service takes only the checksummed form. */
  const checksummed = (address) => getAddress(address);

  // ---- 1. wallet and email --------------------------------------------------------------------

  onClick("connect", "identity", async () => {
    const accounts = await eth("eth_requestAccounts");
    const first = Array.isArray(accounts) ? accounts[0] : undefined;
    if (typeof first !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(first)) throw new Refusal(say("noWallet"));
    state.address = checksummed(first);
    state.walletSession = "";
    await signIn();
    $("wallet").value = state.address;
    $("email").focus();
  });

  /**
   * Sign-In with Ethereum: the service's EIP-4361 message, signed by the wallet (personal_sign),
   * opens the session every call about this address needs; it moves no funds.
   */
  async function signIn() {
    const { data: challenge } = await service.createBrebWalletChallenge({
      body: { userAddress: state.address, domain: location.host, uri: location.href },
    });
    const utf8 = new TextEncoder().encode(challenge.message);
    const data = `0x${Array.from(utf8, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
    const signature = await eth("personal_sign", [data, state.address]);
    const { data: session } = await service.openBrebWalletSession({
      body: { message: challenge.message, signature },
    });
    state.walletSession = session.walletSession;
  }

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
    const email = $("email").value.trim();
    if (!email) throw new Refusal(say("emailRequired"), { input: "email" });
    state.email = email;
    await sendCode();
    $("code").value = "";
    show("code");
  });

  onClick("resend", "code", sendCode);

  // ---- 2. the code, 3. KYC --------------------------------------------------------------------

  onSubmit("form-code", "code", "verify", async () => {
    const code = $("code").value.replace(/\s/g, "");
    if (!/^\d{6}$/.test(code)) throw new Refusal(say("codeRequired"), { input: "code" });
    const verified = await call(() =>
      service.verifyBrebOtp({ body: { email: state.email, userAddress: state.address, code } }),
    );
    showKyc(verified.kyc);
  });

  function safeLink(id, href) {
    const link = $(id);
    let url = null;
    try {
      url = href ? new URL(href) : null;
    } catch {
      url = null;
    }
    const usable = url && (url.protocol === "https:" || url.protocol === "http:");
    link.hidden = !usable;
    if (usable) link.href = url.href;
    return usable;
  }

  function renderKyc(kyc) {
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
      state.kycTimer = setTimeout(refreshKyc, 5000);
    }
  }

  async function refreshKyc() {
    if ($("step-kyc").hidden) return;
    try {
      const answer = await call(() => service.getBrebKyc({ query: { userAddress: state.address } }));
      clearError("kyc");
      renderKyc(answer.kyc);
    } catch (error) {
      showError("kyc", messageOf(error));
    }
  }

  function showKyc(kyc) {
    show("kyc");
    renderKyc(kyc);
  }

  onClick("kyc-recheck", "kyc", refreshKyc);
  onClick("kyc-continue", "kyc", async () => {
    clearTimeout(state.kycTimer);
    show("amount");
  });

  // ---- 4. amount, 5. quote --------------------------------------------------------------------

  const copFormat = new Intl.NumberFormat(lang === "es" ? "es-CO" : "en-US");

  onSubmit("form-amount", "amount", "get-quote", async () => {
    const digits = $("amount").value.replace(/[\s.,]/g, "");
    if (!/^[1-9]\d*$/.test(digits)) throw new Refusal(say("amountRequired"), { input: "amount" });
    const token = document.querySelector('input[name="token"]:checked')?.value ?? "USDC";
    const quote = await call(() =>
      service.quoteBrebPayout({ query: { destinationCop: digits, fromToken: token } }),
    );
    state.quote = quote;
    const fee = (type) => quote.fees.find((entry) => entry.type === type);
    const amount = (entry) => (entry ? `${entry.amount} ${entry.token}` : "—");
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

  // ---- 6. recipient and the payout --------------------------------------------------------------

  function setRecipientLocked(locked) {
    for (const id of ["breb-key", "owner-name", "create-payout"]) $(id).disabled = locked;
    $("create-payout").dataset.locked = String(locked);
  }

  function resetRecipient() {
    $("mismatch").hidden = true;
    setRecipientLocked(false);
  }

  function idempotencyKeyFor(body) {
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
    const breBKey = $("breb-key").value.trim();
    const accountOwnerName = $("owner-name").value.trim();
    if (!breBKey || !accountOwnerName) throw new Refusal(say("recipientRequired"));
    const body = { quoteId: state.quote.quoteId, userAddress: state.address, breBKey, accountOwnerName };
    let creation;
    try {
      creation = await call(() =>
        service.createBrebPayout({ body, headers: { "idempotency-key": idempotencyKeyFor(body) } }),
      );
    } catch (error) {
      if (error.code === "destination_mismatch") {
        // Nothing was created: the flow stops here, and the user is told to send nothing.
        $("mismatch").hidden = false;
        setRecipientLocked(true);
        $("mismatch-restart").focus();
        return;
      }
      if (error.code === "KYC_REQUIRED") {
        showKyc({ status: "not_started", ...error.details });
        return;
      }
      throw error;
    }
    state.creation = creation;
    state.sent = [];
    renderDeposit(creation);
    show("deposit");
  });

  onClick("recipient-change", "recipient", async () => show("amount"));
  onClick("mismatch-restart", "recipient", async () => {
    resetRecipient();
    $("breb-key").value = "";
    $("owner-name").value = "";
    state.quote = null;
    show("amount");
  });

  // ---- 7. the deposit from the wallet ---------------------------------------------------------

  function renderDeposit({ payout, deposit }) {
    $("deposit-total").textContent = `${deposit.amount} ${deposit.token}`;
    $("deposit-recipient").textContent =
      `${payout.destination.accountOwnerName} · ${payout.destination.breBKey}`;
    $("deposit-chain").textContent = `${deposit.chain} (${deposit.chainId})`;
    const minutes = Math.round((Date.parse(payout.depositDeadline) - Date.parse(payout.createdAt)) / 60000);
    $("deposit-deadline").textContent = say("payoutDeadline", { minutes });
    for (const id of ["tx-approve", "tx-deposit"]) $(id).textContent = "";
    $("pay").hidden = false;
  }

  function txLine(step, message, hash) {
    const line = $(step.type === "approve" ? "tx-approve" : "tx-deposit");
    line.textContent = message;
    if (hash) {
      const code = document.createElement("span");
      code.className = "mono";
      code.textContent = ` ${hash}`;
      line.append(code);
    }
  }

  onClick("pay", "deposit", async () => {
    const { payout, deposit } = state.creation;
    const accounts = await eth("eth_requestAccounts");
    const connected = Array.isArray(accounts) && typeof accounts[0] === "string" ? accounts[0] : "";
    if (connected.toLowerCase() !== state.address.toLowerCase()) {
      throw new Refusal(
        say("wrongAccount", {
          connected: /^0x[0-9a-fA-F]{40}$/.test(connected) ? checksummed(connected) : "—",
          verified: state.address,
        }),
      );
    }
    await ensureChain(deposit.chainId, deposit.chain);
    for (const [index, transaction] of planTransactions(deposit).entries()) {
      if (state.sent[index]) continue;
      const step = deposit.steps[index];
      txLine(step, say("stepWaitingWallet"));
      const hash = await eth("eth_sendTransaction", [
        {
          from: state.address,
          to: transaction.to,
          data: transaction.data,
          value: hexOf(transaction.value),
          chainId: hexOf(transaction.chainId),
        },
      ]);
      txLine(step, say("stepWaitingReceipt"), hash);
      const receipt = await waitForReceipt(hash);
      if (receipt.status !== "0x1") {
        txLine(step, say("stepFailed"), hash);
        throw new Refusal(say("stepFailed"));
      }
      state.sent[index] = hash;
      txLine(step, say("stepDone"), hash);
    }
    const confirmed = await confirmDeposit(payout.payoutId, state.sent[state.sent.length - 1]);
    $("pay").hidden = true;
    show("status");
    renderStatus(confirmed);
    watchPayout(payout.payoutId);
  });

  async function confirmDeposit(payoutId, txHash) {
    for (;;) {
      showError("deposit", say("confirming"));
      try {
        const payout = await call(() => service.confirmBrebPayout({ path: { payoutId }, body: { txHash } }));
        clearError("deposit");
        return payout;
      } catch (error) {
        if (error.code !== "DEPOSIT_PENDING_CONFIRMATIONS") throw error;
        const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 3000) / 1000));
        showError("deposit", say("confirmRetry", { seconds }));
        await sleep(seconds * 1000);
      }
    }
  }

  // ---- 8. live status -------------------------------------------------------------------------

  const statusLabel = (status) => (text[`status_${status}`] ? say(`status_${status}`) : status);

  function renderStatus(payout) {
    const line = $("payout-status");
    if (line.dataset.status !== payout.status) {
      line.dataset.status = payout.status;
      line.textContent = statusLabel(payout.status);
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
        const time = new Date(entry.at).toLocaleTimeString(lang === "es" ? "es-CO" : "en-US");
        item.textContent = `${time} · ${statusLabel(entry.status)}`;
        return item;
      }),
    );
  }

  function watchPayout(payoutId) {
    clearTimeout(state.payoutTimer);
    const tick = async () => {
      try {
        const payout = await call(() => service.getBrebPayout({ path: { payoutId } }));
        clearError("status");
        renderStatus(payout);
        if (FINAL.has(payout.status)) return;
      } catch (error) {
        showError("status", messageOf(error));
      }
      state.payoutTimer = setTimeout(tick, POLL_MS);
    };
    state.payoutTimer = setTimeout(tick, POLL_MS);
  }

  onClick("new-payout", "status", async () => {
    clearTimeout(state.payoutTimer);
    state.quote = null;
    state.creation = null;
    state.sent = [];
    $("payout-status").removeAttribute("data-status");
    $("amount").value = "";
    show("amount");
  });
})();
