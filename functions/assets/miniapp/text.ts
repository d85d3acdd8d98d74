import type { MiniappText } from "../../miniapp/texts";

/**
 * The words the page hands its script in the `miniapp-text` JSON block (functions/miniapp/page.tsx):
 * the texts' `client` part and the page's progress line, in the page's language.
 */
export type ClientText = MiniappText["client"] & Pick<MiniappText["page"], "progress">;

/** A text by its key with its `{name}` placeholders filled in; an unknown key says itself. */
export type Say = (key: string, values?: Record<string, string | number>) => string;

export function sayer(text: ClientText): Say {
  return (key, values = {}) =>
    String(text[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ""));
}
