import type { Child } from "hono/jsx";

/**
 * A secret in the one answer that made it (never in a URL, a redirect or a log, and never shown
 * again): the warning to store it now, the whole value, and a copy button the dashboard's script
 * puts in the `data-copy-target` box. `children` is what the page adds below it.
 */
export function SecretOnce(props: {
  titleId: string;
  valueId: string;
  title: string;
  warning: string;
  value: string;
  children?: Child;
}) {
  return (
    <section class="secret" aria-labelledby={props.titleId}>
      <h2 id={props.titleId}>{props.title}</h2>
      <p>
        <strong>{props.warning}</strong>
      </p>
      <code id={props.valueId}>{props.value}</code>
      <div class="actions" data-copy-target={props.valueId} />
      {props.children}
    </section>
  );
}
