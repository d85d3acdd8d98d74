import type { Child } from "hono/jsx";

/**
 * A white card headed by an `h2` that also names it for screen readers (`id` is the heading's);
 * `level` 3 for a card that is one of several under a section's own `h2`.
 */
export function Card(props: { id: string; title: Child; level?: 2 | 3; children?: Child }) {
  return (
    <section class="card" aria-labelledby={props.id}>
      {props.level === 3 ? <h3 id={props.id}>{props.title}</h3> : <h2 id={props.id}>{props.title}</h2>}
      {props.children}
    </section>
  );
}
