import type { Hono } from "hono";

/** The methods registered for a path other than the one asked, for 405 and its Allow header. */
export function allowedMethods(
  app: Hono<never> | { routes: Array<{ method: string; path: string }> },
  path: string,
) {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL" || route.path.includes("*")) continue;
    if (pathPattern(route.path).test(path)) methods.add(route.method);
  }
  return [...methods].sort();
}

const patterns = new Map<string, RegExp>();

function pathPattern(routePath: string): RegExp {
  let pattern = patterns.get(routePath);
  if (!pattern) {
    const source = routePath
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    pattern = new RegExp(`^${source}/?$`);
    patterns.set(routePath, pattern);
  }
  return pattern;
}
