import { z } from "zod";
import { bpsTextAsFraction } from "../../kernel/basis-points";
import { FINALITY_FAST } from "../../kernel/chain/abis";
import { ceilFraction, parseDecimalFraction } from "../../kernel/decimal-fraction";
import { parseJsonKeepingNumberText } from "../../kernel/exact-json";
import { DEFAULT_PROVIDER_TIMEOUT_MS, ProviderFailure } from "../../kernel/provider-failure";
import type { TransferFees, TransferFeesProvider } from "../../settlement";
import { excerpt, type FetchLike, getWithinDeadline, globalFetch, retryAfterMsOf } from "../common/http-get";
import { IRIS_BLOCK_MS } from "./iris-attestation";

const PROVIDER = "circle-iris";

export interface IrisTransferFeesOptions {
  /** `https://iris-api.circle.com` (mainnet) or `https://iris-api-sandbox.circle.com` (testnets). */
  baseUrl: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** The clock a Retry-After date is read against. */
  now?: () => Date;
}

/**
 * CCTP v2 fees from Circle's Iris API: `GET /v2/burn/USDC/fees/{src}/{dst}?forward=true` answers
 * one entry per finality threshold, `[{ finalityThreshold, minimumFee, forwardFee: { low, med, high } }]`
 * (developers.circle.com/cctp/howtos/get-transfer-fee and …/transfer-usdc-with-forwarding-service).
 * The entry of the asked finality (Standard 2000, Fast 1000) gives Circle's minimum fee in basis
 * points, possibly fractional ("1.3"; Standard's is 0), and the Forwarding Service fee in USDC base
 * units; the medium estimate is used.
 */
export function irisTransferFees(options: IrisTransferFeesOptions): TransferFeesProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalFetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  return {
    async transferFees({ sourceDomain, destinationDomain, finalityThreshold }) {
      const route = `${domainText(sourceDomain)}/${domainText(destinationDomain)}`;
      const answer = await getWithinDeadline(
        PROVIDER,
        fetchImpl,
        `${baseUrl}/v2/burn/USDC/fees/${route}?forward=true`,
        { accept: "application/json" },
        timeoutMs,
      );
      // Iris answers 400 or 404 ({ code, message }) for a pair of domains it does not serve.
      if (answer.status === 400 || answer.status === 404) {
        throw new ProviderFailure(
          "no_route",
          PROVIDER,
          `Circle serves no route ${route}: ${excerpt(answer.body)}`,
        );
      }
      if (answer.status !== 200) {
        throw new ProviderFailure(
          "unavailable",
          PROVIDER,
          `Circle Iris answered HTTP ${answer.status} for ${route}`,
          answer.status === 429
            ? { retryAfterMs: retryAfterMsOf(answer, options.now?.() ?? new Date(), IRIS_BLOCK_MS) }
            : undefined,
        );
      }
      return feesAtFinality(readFeeEntries(answer.body), route, finalityThreshold);
    },
  };
}

const decimalText = z.string().refine((text) => parseDecimalFraction(text) !== undefined, "not a decimal");

/** Numbers arrive as the text Circle wrote (parseJsonKeepingNumberText); Circle's schema calls them numbers. */
const feeEntriesSchema = z.array(
  z.object({
    finalityThreshold: z.string().regex(/^\d+$/).transform(Number),
    minimumFee: z.string(),
    forwardFee: z
      .object({
        low: decimalText.optional(),
        // The guides' examples spell it `med`; Circle's OpenAPI schema spells it `medium`.
        med: decimalText.optional(),
        medium: decimalText.optional(),
        high: decimalText.optional(),
      })
      .optional(),
  }),
);

type FeeEntry = z.infer<typeof feeEntriesSchema>[number];

function readFeeEntries(body: string): FeeEntry[] {
  try {
    return feeEntriesSchema.parse(parseJsonKeepingNumberText(body));
  } catch (error) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `Circle Iris answered an unreadable fee list: ${excerpt(body)}`,
      {
        cause: error,
      },
    );
  }
}

function feesAtFinality(entries: FeeEntry[], route: string, finalityThreshold: number): TransferFees {
  const name = finalityThreshold === FINALITY_FAST ? "Fast" : `finality ${finalityThreshold}`;
  const entry = entries.find((candidate) => candidate.finalityThreshold === finalityThreshold);
  if (!entry) {
    throw new ProviderFailure("no_route", PROVIDER, `Circle offers no ${name} transfer on ${route}`);
  }
  const minimumFee = bpsTextAsFraction(entry.minimumFee);
  if (!minimumFee) {
    throw new ProviderFailure(
      "unavailable",
      PROVIDER,
      `Circle's ${name} fee on ${route} is not a number of bps: ${entry.minimumFee}`,
    );
  }
  const forwardFeeText = entry.forwardFee?.med ?? entry.forwardFee?.medium;
  const forwardFee = forwardFeeText === undefined ? undefined : parseDecimalFraction(forwardFeeText);
  if (!forwardFee) {
    throw new ProviderFailure("no_route", PROVIDER, `Circle quotes no Forwarding Service fee on ${route}`);
  }
  // Base units are whole; a fractional estimate would be rounded up, against the service's loss.
  return { minimumFee, forwardFeeUsdc: ceilFraction(forwardFee) };
}

function domainText(domain: number): string {
  if (!Number.isInteger(domain) || domain < 0)
    throw new RangeError(`CCTP domain must be a whole number, got ${domain}`);
  return String(domain);
}
