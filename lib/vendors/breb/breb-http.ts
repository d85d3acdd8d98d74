/**
 * The BRE-B payout provider over HTTP (the port is breb.ts; the contract is
 * docs/breb-provider.openapi.yaml). The local provider in dev/breb-provider speaks the same contract,
 * so this adapter runs unchanged locally.
 *
 *   GET  {baseUrl}/rates/{token}                       → { "token", "copPerUnit" }
 *   GET  {baseUrl}/deposit-address?token=&chainId=     → { "address" }
 *   POST {baseUrl}/keys/resolve { "breBKey", "accountOwnerName" } → { "found", "holderName"? }
 *   POST {baseUrl}/payouts BrebPayoutRequest → 201 (new) or 200 (same payoutId: the existing payout)
 *        BrebPayoutReport; 422 { "error" } when the deposit does not check out
 *   GET  {baseUrl}/payouts/{payoutId}                  → BrebPayoutReport; 404 unknown
 *   POST {baseUrl}/payouts/{payoutId}/refund BrebPayoutRequest → 200 BrebPayoutReport (failed while the
 *        refund goes out, then refunded); 422 { "error" } when the payout was paid or the deposit does
 *        not check out (409: the deposit is not mined yet, as for a submission)
 *   Every request carries Authorization: Bearer <apiKey>.
 *   Callbacks: the provider POSTs { "type": "payout.status", "data": BrebPayoutReport } to the
 *   service's /callbacks/breb, signed per Standard Webhooks with a shared secret "whsec_…".
 *
 * Every adapter failure is a ProviderFailure (types.ts). A 422 on submit is the provider's clear
 * refusal of this payout, which will be refused again as sent: "no_route", the kind that means "it
 * answered clearly that it will not do this" (as the email adapter reports a refusal). Anything else
 * that is not an answer we can use (timeout, network, 429, 5xx, other statuses, unreadable answers) is
 * "unavailable". The API key, the BRE-B key and the account owner name never appear in a failure message.
 */

import { z } from "zod";
import { ProviderFailure } from "../../kernel/provider-failure";
import {
  BREB_PAYOUT_STATES,
  BREB_TOKENS,
  type BrebKeyResolution,
  type BrebPayoutReport,
  type BrebProvider,
  type BrebRate,
} from "../../payouts/breb-provider";
import { excerpt } from "../common/http-get";
import { jsonOrUndefined, providerHttp } from "../common/provider-http";
import { type CallbackCheck, checkSignedCallback } from "../common/signed-callback";

const PROVIDER = "breb";
const NAME = "BRE-B provider";

export function httpBrebProvider(options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}): BrebProvider {
  const http = providerHttp({
    ...options,
    provider: PROVIDER,
    name: NAME,
    statusNotes: { 429: "rate limited" },
  });
  const readReport = (body: string, secrets?: readonly string[]) =>
    reportOf(http.read(reportSchema, "payout", body, secrets));

  return {
    async rate(token) {
      const answer = await http.request("GET", `/rates/${encodeURIComponent(token)}`);
      if (answer.status !== 200) throw http.refusal(answer);
      const rate = http.read(rateSchema, "rate", answer.body);
      if (rate.token !== token) {
        throw new ProviderFailure(
          "unavailable",
          PROVIDER,
          `${NAME} answered the ${rate.token} rate for ${token}`,
        );
      }
      return { token: rate.token, copPerUnit: rate.copPerUnit } satisfies BrebRate;
    },

    async depositAddress({ token, chainId }) {
      const query = new URLSearchParams({ token, chainId: String(chainId) });
      const answer = await http.request("GET", `/deposit-address?${query}`);
      if (answer.status !== 200) throw http.refusal(answer);
      return http.read(depositAddressSchema, "deposit address", answer.body).address;
    },

    async resolveKey({ breBKey, accountOwnerName }) {
      const secrets = [breBKey, accountOwnerName];
      const answer = await http.request("POST", "/keys/resolve", {
        secrets,
        body: { breBKey, accountOwnerName },
      });
      if (answer.status !== 200) throw http.refusal(answer, secrets);
      const resolution = http.read(resolutionSchema, "key resolution", answer.body, secrets);
      return (
        resolution.found ? { found: true, holderName: resolution.holderName } : { found: false }
      ) satisfies BrebKeyResolution;
    },

    async submit(payout) {
      const secrets = [payout.breBKey, payout.accountOwnerName];
      const answer = await http.request("POST", "/payouts", { secrets, body: payout });
      if (answer.status === 422) {
        const said = errorOf(answer.body) ?? excerpt(answer.body);
        throw new ProviderFailure(
          "no_route",
          PROVIDER,
          `the provider refused the payout: ${http.redacted(said, secrets)}`,
        );
      }
      if (answer.status !== 200 && answer.status !== 201) throw http.refusal(answer, secrets);
      return sameId(readReport(answer.body, secrets), payout.payoutId);
    },

    async refund(payout) {
      const secrets = [payout.breBKey, payout.accountOwnerName];
      const answer = await http.request("POST", `/payouts/${encodeURIComponent(payout.payoutId)}/refund`, {
        secrets,
        body: payout,
      });
      if (answer.status === 422) {
        const said = errorOf(answer.body) ?? excerpt(answer.body);
        throw new ProviderFailure(
          "no_route",
          PROVIDER,
          `the provider refused the refund: ${http.redacted(said, secrets)}`,
        );
      }
      if (answer.status !== 200) throw http.refusal(answer, secrets);
      return sameId(readReport(answer.body, secrets), payout.payoutId);
    },

    async status(payoutId) {
      const answer = await http.request("GET", `/payouts/${encodeURIComponent(payoutId)}`);
      if (answer.status === 404) {
        throw new ProviderFailure("unavailable", PROVIDER, `${NAME} has no payout ${payoutId}`);
      }
      if (answer.status !== 200) throw http.refusal(answer);
      return sameId(readReport(answer.body), payoutId);
    },
  };
}

const DECIMAL = /^\d+(\.\d+)?$/;
const isPositiveDecimal = (text: string) => DECIMAL.test(text) && /[1-9]/.test(text);

const rateSchema = z.object({
  token: z.enum(BREB_TOKENS),
  copPerUnit: z.string().refine(isPositiveDecimal, "not a positive decimal"),
});

const depositAddressSchema = z.object({ address: z.string().regex(/^0x[0-9a-fA-F]{40}$/) });

const resolutionSchema = z.discriminatedUnion("found", [
  z.object({ found: z.literal(true), holderName: z.string().trim().min(1) }),
  z.object({ found: z.literal(false) }),
]);

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

const reportSchema = z
  .object({
    payoutId: z.string().min(1),
    providerPayoutId: z.string().min(1),
    status: z.enum(BREB_PAYOUT_STATES),
    brebTransactionId: z.string().min(1).optional(),
    failureReason: z.string().optional(),
    refundTxHash: z.string().regex(TX_HASH).optional(),
    updatedAt: z.iso.datetime({ offset: true }),
  })
  .refine((report) => report.status !== "completed" || report.brebTransactionId !== undefined, {
    message: "a completed payout carries its brebTransactionId",
    path: ["brebTransactionId"],
  })
  .refine((report) => report.status !== "refunded" || report.refundTxHash !== undefined, {
    message: "a refunded payout carries its refundTxHash",
    path: ["refundTxHash"],
  });

/** Only the contract's fields, without absent optional ones. */
function reportOf(data: z.infer<typeof reportSchema>): BrebPayoutReport {
  const { payoutId, providerPayoutId, status, brebTransactionId, failureReason, refundTxHash, updatedAt } =
    data;
  return {
    payoutId,
    providerPayoutId,
    status,
    ...(brebTransactionId === undefined ? {} : { brebTransactionId }),
    ...(failureReason === undefined ? {} : { failureReason }),
    ...(refundTxHash === undefined ? {} : { refundTxHash }),
    updatedAt,
  };
}

function sameId(report: BrebPayoutReport, payoutId: string): BrebPayoutReport {
  if (report.payoutId !== payoutId) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `${NAME} answered payout ${report.payoutId} when asked for ${payoutId}`,
    );
  }
  return report;
}

/** The `error` of a `{ "error": … }` body, when there is one. */
function errorOf(body: string): string | undefined {
  const parsed = jsonOrUndefined(body);
  if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
    const { error } = parsed;
    if (typeof error === "string" && error !== "") return excerpt(error);
  }
  return undefined;
}

const callbackSchema = z.object({ type: z.literal("payout.status"), data: reportSchema });

/**
 * Checks a `payout.status` callback's Standard Webhooks signature on the raw body (secret "whsec_…")
 * at `now`, then its shape (signed-callback.ts). Never throws.
 */
export function checkBrebCallback(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
): CallbackCheck<BrebPayoutReport> {
  const checked = checkSignedCallback(secret, rawBody, headers, now, callbackSchema);
  return checked.ok ? { ok: true, value: reportOf(checked.value.data) } : checked;
}

/** The payout report of a valid callback, or undefined when its signature, timestamp or shape is wrong. */
export function verifyBrebCallback(
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
  now: Date,
): BrebPayoutReport | undefined {
  const checked = checkBrebCallback(secret, rawBody, headers, now);
  return checked.ok ? checked.value : undefined;
}
