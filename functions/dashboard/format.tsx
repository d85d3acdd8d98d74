import type { Language } from "../../lib/kernel/errors/error-body";
import { groupedDecimal } from "../../lib/kernel/money";

export { groupedDecimal };

/** An amount with its token: `1.234,56 USDC`. */
export function Amount(props: { value: string | null | undefined; token: string; language: Language }) {
  if (props.value === null || props.value === undefined) return <span>—</span>;
  return <span class="amount">{`${groupedDecimal(props.value, props.language)} ${props.token}`}</span>;
}

/**
 * A time: UTC in the HTML (so the page reads without its script), shown in the viewer's locale and
 * time zone by the dashboard's script, which reads `datetime`.
 */
export function Time(props: { at: string | Date | null | undefined }) {
  if (!props.at) return <span>—</span>;
  const iso = typeof props.at === "string" ? props.at : props.at.toISOString();
  return <time datetime={iso}>{`${iso.slice(0, 19).replace("T", " ")} UTC`}</time>;
}

/**
 * A time as stored, in UTC, as a log's date filter reads it: not a `<time datetime>`, which the
 * dashboard's script would turn into the viewer's time zone.
 */
export function UtcTime(props: { at: Date }) {
  const iso = props.at.toISOString();
  return <span title={iso}>{`${iso.slice(0, 19).replace("T", " ")} UTC`}</span>;
}

/** A transaction hash or address, whole (people compare and copy them), in a monospace span. */
export function Hash(props: { value: string | null | undefined }) {
  if (!props.value) return <span>—</span>;
  return <span class="mono">{props.value}</span>;
}

export type Tone = "good" | "bad" | "wait";

/** A status as a pill coloured by outcome: from the API's status words, or the `tone` given. */
export function StatusPill(props: { status: string; tone?: Tone }) {
  const status = props.status.toLowerCase();
  const tone =
    props.tone ??
    (/(delivered|completed|confirmed|approved|succeeded|active|healthy)/.test(status)
      ? "good"
      : /(stuck|failed|expired|refund|revoked|rejected|disabled)/.test(status)
        ? "bad"
        : "wait");
  return <span class={`pill ${tone}`}>{props.status}</span>;
}
