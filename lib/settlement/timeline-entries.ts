import type { z } from "zod";
import { TIMELINE, type TimelineKind } from "./timeline";

/** How code reads and writes a timeline entry of a kind of TIMELINE: its detail typed by its kind. */

/** The kinds that move an order, and the ones that only note something on its timeline. */
export type MoveKind = {
  [K in TimelineKind]: (typeof TIMELINE)[K]["moves"] extends null ? never : K;
}[TimelineKind];
export type NoteKind = Exclude<TimelineKind, MoveKind>;

/** A kind's detail as its writer gives it (figures as digit strings) and as a reader gets it back. */
export type TimelineDetail<K extends TimelineKind> = z.output<(typeof TIMELINE)[K]["detail"]>;

/**
 * A stored entry's detail, checked against its kind: undefined for a kind this code does not know
 * (an entry written by hand, or by a newer version) or a detail that lacks what the kind records.
 */
export function timelineDetail<K extends TimelineKind>(
  kind: K,
  detail: unknown,
): TimelineDetail<K> | undefined {
  const parsed = TIMELINE[kind].detail.safeParse(detail ?? {});
  return parsed.success ? (parsed.data as TimelineDetail<K>) : undefined;
}

export function isTimelineKind(kind: string): kind is TimelineKind {
  return Object.hasOwn(TIMELINE, kind);
}

/** An entry's kind with its detail, typed together: a switch on `kind` narrows `detail`. */
export type TypedEntry = { [K in TimelineKind]: { kind: K; detail: TimelineDetail<K> } }[TimelineKind];

/** A stored entry as a TypedEntry: undefined for an unknown kind or a detail that does not parse. */
export function typedEntry(entry: { kind: string; detail: unknown }): TypedEntry | undefined {
  if (!isTimelineKind(entry.kind)) return undefined;
  const detail = timelineDetail(entry.kind, entry.detail);
  return detail === undefined ? undefined : ({ kind: entry.kind, detail } as TypedEntry);
}
