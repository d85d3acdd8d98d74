import type { Child } from "hono/jsx";

/** One entry of a `dl.facts` list: the term, and its value (`mono` for ids and references). */
export function Fact(props: { term: string; mono?: boolean; children?: Child }) {
  return (
    <>
      <dt>{props.term}</dt>
      <dd class={props.mono ? "mono" : undefined}>{props.children}</dd>
    </>
  );
}
