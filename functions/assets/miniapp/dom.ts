/**
 * The page's element with this id (of this kind, when given): the server renders every one the
 * script uses, so a missing one is a bug, said at once.
 */
export function $(id: string): HTMLElement;
export function $<Kind extends HTMLElement>(id: string, kind: new () => Kind): Kind;
export function $(id: string, kind: new () => HTMLElement = HTMLElement): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing`);
  if (!(element instanceof kind)) throw new Error(`#${id} is not a ${kind.name}`);
  return element;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
