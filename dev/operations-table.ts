// The API worker's table of operations (lib/composition/operations/: a file per area and their
// index), made by `npm run docs` from the route modules themselves: each module under
// functions/<area>/ that exports `register` is one operation, and the table says which method and
// path each serves, so the worker can route a request before the module is loaded. A test fails when
// the committed table and the modules disagree.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { OperationModule, OperationRoute } from "../lib/http/lazy-operations";

/** Areas whose modules belong to the pages worker (lib/composition/pages.ts), and the browser scripts. */
const NOT_THE_API_WORKERS = new Set(["assets", "dashboard", "miniapp"]);

/** Where the table is written, from the repository's root: a file per area, and index.ts. */
export const OPERATIONS_DIR = "lib/composition/operations";

const FUNCTIONS = fileURLToPath(new URL("../functions/", import.meta.url));

/** The route modules' paths from functions/, without extension, in path order. */
function candidateModules(): string[] {
  return readdirSync(FUNCTIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_THE_API_WORKERS.has(entry.name))
    .flatMap((area) =>
      readdirSync(`${FUNCTIONS}${area.name}`)
        .filter((file) => /\.tsx?$/.test(file))
        .map((file) => `${area.name}/${file.replace(/\.tsx?$/, "")}`),
    )
    .sort();
}

/** What a module registers: each route's method and Hono path, with its document's operationId. */
function routesOf(module: OperationModule): OperationRoute[] {
  const app = new OpenAPIHono();
  module.register(app as never);
  const operationIds = new Map<string, string>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route" || !definition.route.operationId) continue;
    const path = definition.route.path.replaceAll(/\{(\w+)\}/g, ":$1");
    operationIds.set(`${definition.route.method.toUpperCase()} ${path}`, definition.route.operationId);
  }
  const seen = new Set<string>();
  const routes: OperationRoute[] = [];
  for (const { method, path } of app.routes) {
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const operationId = operationIds.get(key);
    routes.push({
      method: method as OperationRoute["method"],
      path,
      ...(operationId ? { operationId } : {}),
    });
  }
  return routes;
}

/** A route as biome formats it: on one line when it fits in 110 columns, else a field a line. */
function routeLiteral(route: OperationRoute): string {
  const fields = Object.entries(route).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  const line = `      { ${fields.join(", ")} },`;
  if (line.length <= 110) return line;
  return ["      {", ...fields.map((field) => `        ${field},`), "      },"].join("\n");
}

/** An area's constant: `settlement` → SETTLEMENT_OPERATIONS. */
const constantOf = (area: string) => `${area.toUpperCase()}_OPERATIONS`;

/** The table's files, by their path from the repository's root, with their text. */
export async function operationsTable(): Promise<Record<string, string>> {
  const byArea = new Map<string, string[]>();
  for (const name of candidateModules()) {
    const module = (await import(`${FUNCTIONS}${name}`)) as Partial<OperationModule>;
    if (typeof module.register !== "function") continue;
    const routes = routesOf(module as OperationModule)
      .map(routeLiteral)
      .join("\n");
    const area = name.split("/")[0] as string;
    byArea.set(area, [
      ...(byArea.get(area) ?? []),
      [
        "  {",
        `    load: () => import("../../../functions/${name}"),`,
        routes ? `    routes: [\n${routes}\n    ],` : "    routes: [],",
        "  },",
      ].join("\n"),
    ]);
  }
  const header = [
    "// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module",
    "// that exports `register` is one operation. Edit the modules, not this file.",
    'import type { LazyOperation } from "../../http/lazy-operations";',
    "",
  ];
  const files: Record<string, string> = {};
  for (const [area, entries] of byArea) {
    files[`${OPERATIONS_DIR}/${area}.ts`] = [
      ...header,
      `/** The operations of functions/${area}/. */`,
      `export const ${constantOf(area)}: readonly LazyOperation[] = [`,
      ...entries,
      "];",
      "",
    ].join("\n");
  }
  const areas = [...byArea.keys()];
  files[`${OPERATIONS_DIR}/index.ts`] = [
    ...header,
    ...areas.map((area) => `import { ${constantOf(area)} } from "./${area}";`),
    "",
    "/**",
    " * Every operation the API worker serves, with the routes each registers: the worker routes a",
    " * request by this table and loads the operation's module at its first request (lib/http/lazy-operations.ts).",
    " */",
    "export const API_OPERATIONS: readonly LazyOperation[] = [",
    ...areas.map((area) => `  ...${constantOf(area)},`),
    "];",
    "",
  ].join("\n");
  return files;
}
