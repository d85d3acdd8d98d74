import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { z } from "zod";
import { openApiConfig } from "../../lib/http/app";

/**
 * The contract as a validating proxy sees it: for a request the app answered, whether the answer is
 * one the OpenAPI document declares. Checked: the status is declared for the operation; each of
 * CONTRACT_HEADERS the answer carries is declared for that status, and each one declared required is
 * carried; a JSON body parses with the status's declared schema, with unknown keys refused at every
 * depth (the check is the test's: production schemas stay as they are); any other body's media type
 * is declared. Requests to paths the document does not hold (the dashboard, the miniapp's key-less
 * prefix, /docs, an unknown route) are not the contract's.
 */
export const CONTRACT_HEADERS = [
  "API-Version",
  "X-Request-Id",
  "Retry-After",
  "Content-Disposition",
] as const;

interface HeaderObject {
  required?: boolean;
  $ref?: string;
}

interface DocumentOperation {
  responses: Record<string, { headers?: Record<string, HeaderObject>; content?: Record<string, unknown> }>;
}

interface Document {
  paths: Record<string, Record<string, DocumentOperation>>;
  components: { headers?: Record<string, HeaderObject> };
}

interface Operation {
  method: string;
  path: string;
  route: RouteConfig;
  document: DocumentOperation;
}

export interface Contract {
  document: Document;
  /** The documented operation a request reached, if any. */
  operationOf(method: string, path: string): Operation | undefined;
  /** What is wrong with `response` as the answer to `method path` (none: it keeps the contract). */
  violations(method: string, path: string, response: Response): Promise<string[]>;
}

/** The contract of `app`, an app with every operation registered (lib/composition/app.ts operationsApp). */
// biome-ignore lint/suspicious/noExplicitAny: the app's environment is the harness's, any here
export function contractOf(app: OpenAPIHono<any>): Contract {
  const document = app.getOpenAPI31Document(openApiConfig("http://api.test")) as unknown as Document;
  const operations = app.openAPIRegistry.definitions
    .flatMap((definition) => (definition.type === "route" ? [definition.route] : []))
    .map((route) => ({
      method: route.method.toUpperCase(),
      path: route.path,
      route,
      document: document.paths[route.path]?.[route.method] as DocumentOperation,
      pattern: new RegExp(`^${route.path.replaceAll(/\{[^}]+\}/g, "[^/]+")}$`),
      params: (route.path.match(/\{/g) ?? []).length,
    }))
    // A literal segment wins over a parameter (`/swaps/prepare` before `/swaps/{intentId}`).
    .sort((a, b) => a.params - b.params);

  const operationOf = (method: string, path: string) =>
    operations.find((operation) => operation.method === method.toUpperCase() && operation.pattern.test(path));

  const headerOf = (header: HeaderObject): HeaderObject =>
    header.$ref ? (document.components.headers?.[header.$ref.split("/").pop() ?? ""] ?? {}) : header;

  return {
    document,
    operationOf,
    async violations(method, path, response) {
      const operation = operationOf(method, path);
      if (!operation) return [];
      const at = `${method.toUpperCase()} ${path} → ${response.status}`;
      const declared = operation.document.responses[String(response.status)];
      if (!declared) return [`${at}: the status is not declared for ${operation.route.operationId}`];
      const problems: string[] = [];
      const headers = Object.fromEntries(
        Object.entries(declared.headers ?? {}).map(([name, header]) => [
          name.toLowerCase(),
          headerOf(header),
        ]),
      );
      for (const name of CONTRACT_HEADERS) {
        const sent = response.headers.has(name);
        const header = headers[name.toLowerCase()];
        if (sent && !header) problems.push(`${at}: sends ${name}, which the document does not declare`);
        if (!sent && header?.required)
          problems.push(`${at}: declares ${name} required, and does not send it`);
      }
      const media = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
      if (response.status === 204 || media === "") return problems;
      if (!declared.content?.[media]) {
        return [...problems, `${at}: answers ${media}, which the document does not declare`];
      }
      if (media !== "application/json") return problems;
      const schema = jsonSchemaOf(operation.route, response.status);
      const body: unknown = await response.clone().json();
      if (!schema) return problems;
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        problems.push(
          ...parsed.error.issues.map(
            (issue) =>
              `${at}: body.${issue.path.join(".")} ${issue.message} (${JSON.stringify(body).slice(0, 300)})`,
          ),
        );
      }
      problems.push(...unknownKeys(schema, body, "body").map((field) => `${at}: ${field} is not declared`));
      return problems;
    },
  };
}

function jsonSchemaOf(route: RouteConfig, status: number): z.ZodType | undefined {
  const response = route.responses[status] as
    | { content?: Record<string, { schema?: unknown } | undefined> }
    | undefined;
  const schema = response?.content?.["application/json"]?.schema;
  return schema && typeof schema === "object" && "safeParse" in schema ? (schema as z.ZodType) : undefined;
}

// zod 4's definitions, as much of them as the walk reads.
interface Definition {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
}

const definitionOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Definition } })._zod.def;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The fields of `value` that `schema` does not declare, at any depth: what `.strict()` on every object
 * of the schema would refuse. Where a union's options fit the value, the one declaring every field
 * wins.
 */
export function unknownKeys(schema: z.ZodType, value: unknown, at: string): string[] {
  const definition = definitionOf(schema);
  switch (definition.type) {
    case "object": {
      if (!isRecord(value)) return [];
      const catchall = definition.catchall;
      return Object.entries(value).flatMap(([key, item]) => {
        const field = definition.shape?.[key];
        if (field) return unknownKeys(field, item, `${at}.${key}`);
        if (catchall && definitionOf(catchall).type !== "never")
          return unknownKeys(catchall, item, `${at}.${key}`);
        return [`${at}.${key}`];
      });
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return value === undefined || value === null || !definition.innerType
        ? []
        : unknownKeys(definition.innerType, value, at);
    case "array":
      return Array.isArray(value) && definition.element
        ? value.flatMap((item, index) => unknownKeys(definition.element as z.ZodType, item, `${at}.${index}`))
        : [];
    case "tuple":
      return Array.isArray(value)
        ? value.flatMap((item, index) => {
            const element = definition.items?.[index] ?? definition.rest ?? undefined;
            return element ? unknownKeys(element, item, `${at}.${index}`) : [];
          })
        : [];
    case "record":
      return isRecord(value) && definition.valueType
        ? Object.entries(value).flatMap(([key, item]) =>
            unknownKeys(definition.valueType as z.ZodType, item, `${at}.${key}`),
          )
        : [];
    case "union": {
      let first: string[] | undefined;
      for (const option of definition.options ?? []) {
        if (!option.safeParse(value).success) continue;
        const unknown = unknownKeys(option, value, at);
        if (unknown.length === 0) return [];
        first ??= unknown;
      }
      return first ?? [];
    }
    case "intersection": {
      const right = new Set(definition.right ? unknownKeys(definition.right, value, at) : []);
      return (definition.left ? unknownKeys(definition.left, value, at) : []).filter((key) => right.has(key));
    }
    case "pipe":
      return definition.in ? unknownKeys(definition.in, value, at) : [];
    case "lazy":
      return definition.getter ? unknownKeys(definition.getter(), value, at) : [];
    default:
      return [];
  }
}

/** What a request names: its method and its path, however `app.request` was called. */
export function requestLine(input: RequestInfo | URL, init?: RequestInit): { method: string; path: string } {
  const request = input instanceof Request ? input : undefined;
  const url = request ? request.url : input instanceof URL ? input.href : String(input);
  return {
    method: (init?.method ?? request?.method ?? "GET").toUpperCase(),
    path: new URL(url, "http://localhost").pathname,
  };
}
