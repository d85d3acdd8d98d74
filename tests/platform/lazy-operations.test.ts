import { readdirSync, readFileSync } from "node:fs";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { OPERATIONS_DIR, operationsTable } from "../../dev/operations-table";
import { API_OPERATIONS } from "../../lib/composition/operations";
import { contractApp } from "../../lib/http/app";
import type { AppEnv } from "../../lib/http/env";
import { handleError } from "../../lib/http/errors";
import { type LazyOperation, type OperationModule, registerLazily } from "../../lib/http/lazy-operations";

const ROOT = new URL("../../", import.meta.url);

/** A module with one validated route, counting how often it is evaluated (loaded). */
function countedOperation(answer: OperationModule["register"] | undefined = undefined) {
  let loads = 0;
  const route = createRoute({
    method: "post",
    path: "/things/{thingId}",
    tags: ["Service"],
    request: {
      params: z.object({ thingId: z.string().regex(/^t_/) }),
      body: {
        content: { "application/json": { schema: z.object({ n: z.number().int() }) } },
        required: true,
      },
    },
    responses: { 200: { description: "ok" } },
  });
  const module: OperationModule = {
    register:
      answer ??
      ((app: OpenAPIHono<AppEnv>) => {
        app.openapi(route, (c) =>
          c.json(
            { thing: c.req.valid("param").thingId, n: c.req.valid("json").n, seen: c.get("requestId") },
            200,
          ),
        );
      }),
  };
  const operation: LazyOperation = {
    load: async () => {
      loads += 1;
      return module;
    },
    routes: [{ method: "POST", path: "/things/:thingId" }],
  };
  return { operation, loads: () => loads };
}

function appWith(operation: LazyOperation) {
  const app = contractApp();
  // What the app's middleware sets, to be read by the operation's handler in the same context.
  app.use("*", async (c, next) => {
    c.set("requestId", "req_from_the_app");
    await next();
    c.header("x-after", "ran");
  });
  app.onError(handleError);
  registerLazily(app, operation, contractApp);
  return app;
}

const post = (app: OpenAPIHono<AppEnv>, path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });

describe("operations loaded at their first request (lib/http/lazy-operations.ts)", () => {
  it("loads a module at its first request only, once, however many requests arrive together", async () => {
    const { operation, loads } = countedOperation();
    const app = appWith(operation);
    expect(loads()).toBe(0);
    const answers = await Promise.all([1, 2, 3].map((n) => post(app, `/things/t_${n}`, { n })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await answers[2]?.json()).toEqual({ thing: "t_3", n: 3, seen: "req_from_the_app" });
    expect(answers[0]?.headers.get("x-after")).toBe("ran");
    await post(app, "/things/t_4", { n: 4 });
    expect(loads()).toBe(1);
  });

  it("validates with the module's schemas and answers a bad request through the app's error model", async () => {
    const { operation } = countedOperation();
    const app = appWith(operation);
    const badParam = await post(app, "/things/x_1", { n: 1 });
    expect(badParam.status).toBe(400);
    expect(((await badParam.json()) as { error: { code: string } }).error.code).toBe("INVALID_REQUEST");
    const badBody = await post(app, "/things/t_1", { n: 1.5 });
    expect(badBody.status).toBe(400);
    const notJson = await app.request("/things/t_1", {
      method: "POST",
      body: "n=1",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
  });

  it("answers an error its handler throws with the app's error handler, and the app's middleware sees the answer", async () => {
    const { operation } = countedOperation((app) => {
      app.post("/things/:thingId", () => {
        throw new Error("boom: a secret-free failure");
      });
    });
    const app = appWith(operation);
    const answer = await post(app, "/things/t_1", {});
    expect(answer.status).toBe(500);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("INTERNAL_ERROR");
    expect(answer.headers.get("x-after")).toBe("ran");
  });

  it("tries a module whose import failed again at the next request", async () => {
    const { operation } = countedOperation();
    let failures = 1;
    const flaky: LazyOperation = {
      ...operation,
      load: async () => {
        if (failures-- > 0) throw new Error("the module could not be imported");
        return operation.load();
      },
    };
    const app = appWith(flaky);
    expect((await post(app, "/things/t_1", { n: 1 })).status).toBe(500);
    expect((await post(app, "/things/t_1", { n: 1 })).status).toBe(200);
  });

  it("tries a module whose registration threw again at the next request", async () => {
    const { operation } = countedOperation();
    const module = await operation.load();
    let failures = 1;
    const flaky: LazyOperation = {
      ...operation,
      load: async () => ({
        register: (app) => {
          if (failures-- > 0) throw new Error("registration failed");
          module.register(app);
        },
      }),
    };
    const app = appWith(flaky);
    expect((await post(app, "/things/t_1", { n: 1 })).status).toBe(500);
    expect((await post(app, "/things/t_1", { n: 1 })).status).toBe(200);
  });
});

describe("the API worker's table of operations (lib/composition/operations/)", () => {
  it("is exactly what the route modules register (npm run docs)", async () => {
    const files = await operationsTable();
    const committed = readdirSync(new URL(OPERATIONS_DIR, ROOT)).map((file) => `${OPERATIONS_DIR}/${file}`);
    expect(committed.sort(), "run npm run docs").toEqual(Object.keys(files).sort());
    for (const [path, text] of Object.entries(files)) {
      expect(readFileSync(new URL(path, ROOT), "utf8"), `${path}: run npm run docs`).toBe(text);
    }
  });

  it("has no two routes of one method that one path could both match, so its order decides nothing", () => {
    const routes = API_OPERATIONS.flatMap((operation) => operation.routes);
    const overlapping: string[] = [];
    routes.forEach((a, i) => {
      for (const b of routes.slice(i + 1)) {
        const as = a.path.split("/");
        const bs = b.path.split("/");
        const both =
          a.method === b.method &&
          as.length === bs.length &&
          as.every((segment, k) => segment === bs[k] || segment.startsWith(":") || bs[k]?.startsWith(":"));
        if (both) overlapping.push(`${a.method} ${a.path} / ${b.path}`);
      }
    });
    expect(routes.length).toBeGreaterThan(80);
    expect(overlapping).toEqual([]);
  });
});
