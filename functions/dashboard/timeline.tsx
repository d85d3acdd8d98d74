import type { Child } from "hono/jsx";
import type { Language } from "../../lib/kernel/errors/error-body";
import { Card } from "./card";
import { Hash } from "./format";

const TEXT = {
  es: { title: "Línea de tiempo" },
  en: { title: "Timeline" },
} as const satisfies Record<Language, Record<string, string>>;

/** A record's timeline card: its entries (`li`), oldest first, and a `note` below them when the page has one. */
export function TimelineCard(props: { language: Language; id: string; note?: Child; children: Child }) {
  return (
    <Card id={props.id} title={TEXT[props.language].title}>
      <ol class="timeline">{props.children}</ol>
      {props.note}
    </Card>
  );
}

/** The transaction a timeline entry made, after a separator; nothing when it made none. */
export function EntryHash(props: { value: string | null | undefined }) {
  if (!props.value) return null;
  return (
    <>
      {" · "}
      <Hash value={props.value} />
    </>
  );
}
