import type { Child } from "hono/jsx";
import type { DashboardContext } from "../../lib/http/dashboard-frame";
import { CsrfField } from "./layout";

/**
 * An action that is one button: a POST form with the page's CSRF token. With `confirm`, the
 * dashboard's script asks the person first (`data-confirm`) and posts only on OK; `label` names the
 * button for screen readers when its text alone does not say what it acts on.
 */
export function PostButton(props: {
  c: DashboardContext;
  action: string;
  confirm?: string;
  variant?: "secondary" | "danger";
  label?: string;
  children: Child;
}) {
  return (
    <form method="post" action={props.action} data-confirm={props.confirm}>
      <CsrfField c={props.c} />
      <button type="submit" class={props.variant} aria-label={props.label}>
        {props.children}
      </button>
    </form>
  );
}
