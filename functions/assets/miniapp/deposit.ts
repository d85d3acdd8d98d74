import { CopmApiError, type PayoutCreation, planTransactions } from "@copm/integrations-sdk";
import type { Miniapp } from "./app";
import { $, sleep } from "./dom";
import { renderStatus, watchPayout } from "./status";
import { Refusal } from "./steps";
import { checksummed, hexOf } from "./wallet";

type PlanStep = PayoutCreation["deposit"]["steps"][number];

/** Step 7: the deposit, the plan's transactions sent from the wallet exactly as the service made them. */
export function wireDeposit(app: Miniapp) {
  const { state, say, steps, wallet } = app;

  function txLine(step: PlanStep, message: string, hash?: string) {
    const line = $(step.type === "approve" ? "tx-approve" : "tx-deposit");
    line.textContent = message;
    if (hash) {
      const code = document.createElement("span");
      code.className = "mono";
      code.textContent = ` ${hash}`;
      line.append(code);
    }
  }

  steps.onClick("pay", "deposit", async () => {
    const { creation, address } = state;
    if (!creation || !address) throw new Error("no payout to pay");
    const { payout, deposit } = creation;
    const accounts = await wallet.request({ method: "eth_requestAccounts" });
    const connected = Array.isArray(accounts) && typeof accounts[0] === "string" ? accounts[0] : "";
    if (connected.toLowerCase() !== address.toLowerCase()) {
      throw new Refusal(
        say("wrongAccount", {
          connected: /^0x[0-9a-fA-F]{40}$/.test(connected) ? checksummed(connected) : "—",
          verified: address,
        }),
      );
    }
    await wallet.ensureChain(deposit.chainId, deposit.chain);
    for (const [index, transaction] of planTransactions(deposit).entries()) {
      if (state.sent[index]) continue;
      const step = deposit.steps[index];
      if (!step) throw new Error(`the plan has no step ${index}`);
      txLine(step, say("stepWaitingWallet"));
      const hash = await wallet.request({
        method: "eth_sendTransaction",
        params: [
          {
            from: address,
            to: transaction.to,
            data: transaction.data,
            value: hexOf(transaction.value),
            chainId: hexOf(transaction.chainId),
          },
        ],
      });
      txLine(step, say("stepWaitingReceipt"), hash);
      const receipt = await wallet.waitForReceipt(hash);
      if (receipt.status !== "0x1") {
        txLine(step, say("stepFailed"), hash);
        throw new Refusal(say("stepFailed"));
      }
      state.sent[index] = hash;
      txLine(step, say("stepDone"), hash);
    }
    const txHash = state.sent[state.sent.length - 1];
    if (!txHash) throw new Error("the plan has no transaction");
    const confirmed = await confirmDeposit(app, payout.payoutId, txHash);
    $("pay").hidden = true;
    steps.show("status");
    renderStatus(app, confirmed);
    watchPayout(app, payout.payoutId);
  });
}

/** Step 7's figures, and its transactions' lines cleared. */
export function renderDeposit(app: Miniapp, { payout, deposit }: PayoutCreation) {
  $("deposit-total").textContent = `${deposit.amount} ${deposit.token}`;
  $("deposit-recipient").textContent =
    `${payout.destination.accountOwnerName} · ${payout.destination.breBKey}`;
  $("deposit-chain").textContent = `${deposit.chain} (${deposit.chainId})`;
  const minutes = Math.round((Date.parse(payout.depositDeadline) - Date.parse(payout.createdAt)) / 60000);
  $("deposit-deadline").textContent = app.say("payoutDeadline", { minutes });
  for (const id of ["tx-approve", "tx-deposit"]) $(id).textContent = "";
  $("pay").hidden = false;
}

/** Confirms the deposit by its hash, waiting as long as the service asks while it gathers confirmations. */
async function confirmDeposit(app: Miniapp, payoutId: string, txHash: string) {
  const { steps, say, service, call } = app;
  for (;;) {
    steps.showError("deposit", say("confirming"));
    try {
      const payout = await call(() => service.confirmBrebPayout({ path: { payoutId }, body: { txHash } }));
      steps.clearError("deposit");
      return payout;
    } catch (error) {
      if (!(error instanceof CopmApiError) || error.code !== "DEPOSIT_PENDING_CONFIRMATIONS") throw error;
      const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 3000) / 1000));
      steps.showError("deposit", say("confirmRetry", { seconds }));
      await sleep(seconds * 1000);
    }
  }
}
