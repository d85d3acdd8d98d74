import type { Child } from "hono/jsx";

/** A white card headed by an `h2` that also names it for screen readers (`id` is the heading's). */
export function Card(props: { id: string; title: Child; children?: Child }) {
  return (
    <section class="card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}
