import type { Locator, Page } from "playwright-core";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as createPayout } from "../../functions/payouts/create-payout";
import { route as listPayouts } from "../../functions/payouts/list-payouts";
import { WALLET_SESSION_TTL_MS } from "../../lib/identity/wallet-sessions";
import { erc20Abi } from "../../lib/kernel/chain/abis";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { TEST_PUBLIC_URL } from "../harness/app";
import { bodyOf } from "../harness/bodies";
import {
  type BrowserSuite,
  harnessWallet,
  injectWallet,
  screenshotBoth,
  startBrowserSuite,
} from "../harness/browser";
import { clientsOn } from "../harness/burns";
import { brebRequest, fund, payoutChain, readPayout, units } from "../harness/payouts";
import { createTenant, type Tenant } from "../harness/tenants";

const englishMessageOf = (code: keyof typeof ERRORS) => ERRORS[code].message.en;

// The BRE-B miniapp in headless Chromium against the in-process app served over loopback HTTP, with
// the sandbox chains and the local BRE-B provider. A person's steps: clicks and typing only; the
// wallet is an injected EIP-1193 provider backed by viem in this process.

let suite: BrowserSuite;
let miniapp: Tenant;

beforeAll(async () => {
  suite = await startBrowserSuite({
    harness: { chains: true, payouts: true },
    prepare: async (h) => {
      miniapp = await createTenant(h, "Miniapp");
      // What `npm run dev` sets once it has made the miniapp's integration.
      Object.assign(h.deps.config, { MINIAPP_INTEGRATION_ID: miniapp.integrationId });
    },
  });
}, 60_000);

afterAll(() => suite?.close());

/** A person with a funded wallet in the browser, on the page. */
async function openMiniapp(options: { locale: string; usdc: string }) {
  const user = privateKeyToAccount(generatePrivateKey());
  await fund(suite.h, miniapp, user.address, { usdc: options.usdc });
  const { page, problems } = await suite.openPage({ locale: options.locale });
  const wallet = harnessWallet(payoutChain(suite.h), user);
  await injectWallet(page, wallet.handle);
  const origins = new Set<string>();
  page.on("request", (request) => origins.add(new URL(request.url()).origin));
  const response = await page.goto(`${suite.baseUrl}/miniapp`);
  expect(response?.status()).toBe(200);
  return { user, page, wallet, problems, origins };
}

async function typeInto(field: Locator, text: string) {
  await field.click();
  await field.pressSequentially(text);
}

/** What the page is saying in its alerts, for a failure's message. */
async function alertsOf(page: Page): Promise<string> {
  const texts = await page.getByRole("alert").allTextContents();
  return texts.filter((text) => text.trim()).join(" | ") || "(no alert shown)";
}

/** The step's heading shows and has the focus (each step moves focus to its heading). */
async function atStep(page: Page, heading: string) {
  const locator = page.getByRole("heading", { level: 2, name: heading });
  try {
    await locator.waitFor({ state: "visible" });
  } catch (error) {
    throw new Error(`step "${heading}" never showed; the page says: ${await alertsOf(page)}`, {
      cause: error,
    });
  }
  await expect
    .poll(() => locator.evaluate((element) => element === element.ownerDocument.activeElement))
    .toBe(true);
}

async function waitForStatus(page: Page, text: string) {
  try {
    await page.getByRole("status").filter({ hasText: text }).waitFor({ state: "visible" });
  } catch (error) {
    const shown = (await page.getByRole("status").allTextContents()).join(" | ");
    throw new Error(`"${text}" never showed (status: ${shown}; alerts: ${await alertsOf(page)})`, {
      cause: error,
    });
  }
}

/** `holder`'s balance of `token`; both addresses as the API answers them. */
const balanceOf = (token: string, holder: string) =>
  clientsOn(payoutChain(suite.h), privateKeyToAccount(generatePrivateKey())).reader.readContract({
    address: token as Hex,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [holder as Hex],
  });

describe("the BRE-B miniapp in Chromium", () => {
  it("takes a person from wallet and email to a completed 100,000 COP payout, in Spanish", async () => {
    const { user, page, wallet, problems, origins } = await openMiniapp({ locale: "es-CO", usdc: "100" });
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    await page.getByRole("heading", { level: 1, name: "Envía pesos por BRE-B" }).waitFor();
    await screenshotBoth(page, "miniapp-01-wallet-email");

    // 1. Connect early: the address the code and KYC are for is the connected wallet's, checksummed
    // although the wallet answers it in lower case, and the wallet signs in with the service's
    // EIP-4361 message before any call about it. The message names the service's host, PUBLIC_URL's
    // (the page's own where deployed; here the page is on loopback and PUBLIC_URL is the harness's).
    await page.getByRole("button", { name: "Conectar billetera" }).click();
    const address = page.getByLabel("Dirección de tu billetera");
    await expect.poll(() => address.inputValue()).toBe(user.address);
    const signIn = wallet.requests.find((request) => request.method === "personal_sign");
    const signed = Buffer.from(String(signIn?.params[0]).slice(2), "hex").toString("utf8");
    expect(signed).toContain(
      `${new URL(TEST_PUBLIC_URL).host} wants you to sign in with your Ethereum account:\n${user.address}`,
    );
    await typeInto(page.getByLabel("Correo electrónico"), "ana.miniapp@example.com");
    await page.getByRole("button", { name: "Enviar código" }).click();

    // 2. The code: mock mode shows it on the page; the person reads it and types it.
    await atStep(page, "Código de verificación");
    const debug = page.locator("#debug-code");
    expect(await debug.textContent()).toBe("Modo de prueba: tu código es 123456");
    const code = (await debug.locator("strong").textContent()) ?? "";
    await screenshotBoth(page, "miniapp-02-code");
    await typeInto(page.getByLabel("Código de 6 dígitos"), code);
    await page.getByRole("button", { name: "Verificar" }).click();

    // 3. KYC: mock mode approves at once.
    await atStep(page, "Verificación de identidad");
    await waitForStatus(page, "Identidad verificada");
    await screenshotBoth(page, "miniapp-03-kyc");
    await page.getByRole("button", { name: "Continuar" }).click();

    // 4. The amount and the token.
    await atStep(page, "¿Cuánto quieres enviar?");
    await typeInto(page.getByLabel("Monto que recibe el destinatario (pesos colombianos, COP)"), "100.000");
    await page.getByRole("radio", { name: "USDC" }).check();
    await screenshotBoth(page, "miniapp-04-amount");
    await page.getByRole("button", { name: "Cotizar" }).click();

    // 5. The quote: the sandbox rate's worked example of docs/payouts.md, to the unit.
    await atStep(page, "Tu cotización");
    expect(await page.locator("#quote-receives").textContent()).toBe("100.000 COP");
    expect(await page.locator("#quote-rate").textContent()).toBe("1 USD = 3,912.45 COP");
    expect(await page.locator("#quote-service-fee").textContent()).toBe("0.256879 USDC");
    expect(await page.locator("#quote-provider-fee").textContent()).toBe("0.12844 USDC");
    expect(await page.locator("#quote-total").textContent()).toBe("25.944752 USDC");
    expect(await page.locator("#quote-valid").textContent()).toBe("2 min");
    await screenshotBoth(page, "miniapp-05-quote");
    await page.getByRole("button", { name: "Continuar" }).click();

    // 6. The recipient, then the payout.
    await atStep(page, "¿A quién le envías?");
    await typeInto(page.getByLabel("Llave BRE-B"), "3001234567");
    await typeInto(page.getByLabel("Nombre del titular de la cuenta"), "Ana Pérez");
    await screenshotBoth(page, "miniapp-06-recipient");
    const created = page.waitForResponse(
      (response) => response.url().endsWith("/api/breb/payouts") && response.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Crear el pago" }).click();
    const createdResponse = await created;
    expect(createdResponse.request().headers()["idempotency-key"]).toMatch(/^miniapp-[0-9a-f]{32}$/);
    // The page's answer as a fetch Response, read with its route's schema (the miniapp's path is the
    // partner route's, registered under /api/breb).
    const creation = await bodyOf(
      new Response(await createdResponse.text(), { status: createdResponse.status() }),
      createPayout,
      201,
    );
    expect(creation.payout.userAddress).toBe(user.address);
    const payoutId = creation.payout.payoutId;

    // 7. The deposit from the wallet: the chain switched to the payout's, the two steps sent as given.
    await atStep(page, "Paga desde tu billetera");
    expect(await page.locator("#deposit-total").textContent()).toBe("25.944752 USDC");
    expect(await page.locator("#deposit-recipient").textContent()).toBe("Ana Pérez · 30••••••67");
    await screenshotBoth(page, "miniapp-07-deposit");
    const { depositAddress, feeWallet, tokenAddress } = creation.deposit;
    const before = {
      provider: await balanceOf(tokenAddress, depositAddress),
      fees: await balanceOf(tokenAddress, feeWallet),
    };
    await page.getByRole("button", { name: "Pagar con mi billetera" }).click();

    // 8. Confirmed by hash, then the live status.
    await atStep(page, "Estado del pago");
    await waitForStatus(page, "Depósito confirmado: enviando el pago");
    expect(await page.locator("#payout-id").textContent()).toBe(payoutId);
    await screenshotBoth(page, "miniapp-08-confirmed");
    const switched = wallet.requests.filter((request) => request.method === "wallet_switchEthereumChain");
    expect(switched.map((request) => request.params)).toEqual([
      [{ chainId: `0x${creation.deposit.chainId.toString(16)}` }],
    ]);
    expect(
      wallet.sent.map((tx) => ({ from: tx.from, to: tx.to, data: tx.data, value: BigInt(tx.value) })),
    ).toEqual(
      creation.deposit.steps.map((step) => ({
        from: user.address,
        to: step.to,
        data: step.data,
        value: BigInt(step.value),
      })),
    );
    expect(wallet.requests.some((request) => request.method === "eth_getTransactionReceipt")).toBe(true);
    expect((await readPayout(suite.h, miniapp, payoutId)).depositTxHash).toBe(wallet.sent[1]?.hash);

    await suite.h.jobs.drain(); // the job hands the payout to the provider
    await waitForStatus(page, "En proceso");
    await screenshotBoth(page, "miniapp-09-processing");
    suite.h.clock.advance(2_000);
    await suite.h.breb?.settle(); // the provider pays and calls back, signed
    await waitForStatus(page, "Completado: el destinatario recibió los pesos");
    await screenshotBoth(page, "miniapp-10-completed");

    // The recipient's side: completed through the API, the BRE-B transaction the page shows, and the
    // provider's deposit address and the fee wallet paid on chain.
    const payout = await readPayout(suite.h, miniapp, payoutId);
    expect(payout.status).toBe("completed");
    expect(payout.brebTransactionId).toMatch(/^BREB-/);
    expect(await page.locator("#breb-tx").textContent()).toBe(payout.brebTransactionId);
    expect(payout.timeline.map((entry) => entry.status)).toEqual([
      "awaiting_deposit",
      "deposit_confirmed",
      "processing",
      "completed",
    ]);
    expect(await page.locator("#payout-timeline li").count()).toBe(4);
    expect((await balanceOf(tokenAddress, depositAddress)) - before.provider).toBe(
      units(creation.deposit.providerAmount),
    );
    expect((await balanceOf(tokenAddress, feeWallet)) - before.fees).toBe(units(creation.deposit.serviceFee));

    expect(problems).toEqual([]);
    expect([...origins]).toEqual([suite.baseUrl]); // the page, its script and every call: this origin only
  });

  it("stops at destination_mismatch and tells the person, in English, to send nothing; no payout exists", async () => {
    const { user, page, wallet, problems } = await openMiniapp({ locale: "en-US", usdc: "100" });
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await expect.poll(() => page.getByLabel("Your wallet address").inputValue()).toBe(user.address);

    // A refusal of the service is said in the page's language, on the field it is about.
    const email = page.getByLabel("Email", { exact: true });
    await typeInto(email, "not-an-email");
    await page.getByRole("button", { name: "Send code" }).click();
    const refusal = page.locator("#step-identity [data-error]");
    await refusal.waitFor({ state: "visible" });
    expect(await refusal.textContent()).toBe(englishMessageOf("INVALID_EMAIL"));
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    await email.fill("");
    await typeInto(email, "mismatch.miniapp@example.com");
    await page.getByRole("button", { name: "Send code" }).click();
    await atStep(page, "Verification code");
    await typeInto(
      page.getByLabel("6-digit code"),
      (await page.locator("#debug-code strong").textContent()) ?? "",
    );
    await page.getByRole("button", { name: "Verify" }).click();
    await waitForStatus(page, "Identity verified");
    await page.getByRole("button", { name: "Continue" }).click();
    await atStep(page, "How much do you want to send?");
    // The wallet's session runs out before the payout: the page has the wallet sign in again, once.
    suite.h.clock.advance(WALLET_SESSION_TTL_MS + 1_000);
    await typeInto(page.getByLabel("Amount the recipient gets (Colombian pesos, COP)"), "50,000");
    await page.getByRole("radio", { name: "COPm" }).check();
    await page.getByRole("button", { name: "Get a quote" }).click();
    await atStep(page, "Your quote");
    expect(await page.locator("#quote-receives").textContent()).toBe("50,000 COP");
    expect(await page.locator("#quote-total").textContent()).toMatch(/ COPm$/);
    await page.getByRole("button", { name: "Continue" }).click();
    await atStep(page, "Who are you paying?");
    await typeInto(page.getByLabel("BRE-B key"), "3001234567");
    await typeInto(page.getByLabel("Account owner's name"), "Ana mismatch");
    await page.getByRole("button", { name: "Create the payout" }).click();

    const warning = page.getByRole("alert").filter({ hasText: "Do not send any funds" });
    await warning.waitFor({ state: "visible" });
    expect(await warning.textContent()).toContain("No payout was created and you must send nothing.");
    await screenshotBoth(page, "miniapp-11-mismatch");
    // The flow stops there: no payout to pay, no way on but starting over.
    expect(await page.getByRole("button", { name: "Create the payout" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Pay with my wallet" }).count()).toBe(0);
    expect(
      await page
        .getByRole("button", { name: "Start over" })
        .evaluate((b) => b === b.ownerDocument.activeElement),
    ).toBe(true);
    expect(wallet.sent).toEqual([]);
    // The wallet was asked for its address and to sign in (the EIP-4361 message, again once its
    // session ran out), and nothing else.
    expect(wallet.requests.map((request) => request.method)).toEqual([
      "eth_requestAccounts",
      "personal_sign",
      "personal_sign",
    ]);
    const listed = await brebRequest(suite.h, miniapp, `/payouts?userAddress=${user.address}`);
    expect((await bodyOf(listed, listPayouts, 200)).payouts).toEqual([]);
    expect(problems).toEqual([]);
  });
});
