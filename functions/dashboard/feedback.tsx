import type { DashboardContext } from "../../lib/http/dashboard-frame";
import type { ApiError } from "../../lib/kernel/errors/api-error";
import { errorBody } from "../../lib/kernel/errors/error-body";

/** A refused action's message as the API words it, in the page's language, announced to screen readers. */
export function ErrorNote(props: { c: DashboardContext; error?: ApiError }) {
  if (!props.error) return null;
  const { message, code } = errorBody(props.error, props.c.get("dashboard").language).error;
  return (
    <p class="error" role="alert" data-code={code}>
      {message}
    </p>
  );
}

/** What an action did, said on the page it led to and announced to screen readers; nothing without `text`. */
export function DoneNote(props: { text: string | undefined }) {
  if (!props.text) return null;
  return (
    <p class="note" role="status">
      {props.text}
    </p>
  );
}
