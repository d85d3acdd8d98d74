import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { errorResponses } from "../../lib/http/openapi-errors";
import type { ResponseBody } from "../../lib/http/route-types";
import { type ServiceStatus, serviceStatus } from "../../lib/settlement";

const timing = {
  count: z.number().int(),
  p50Seconds: z.number().int().nullable(),
  p95Seconds: z.number().int().nullable(),
};

const statusSchema = z
  .object({
    generatedAt: z.string().datetime(),
    windowHours: z.number().int(),
    delivered: z.number().int().openapi({ description: "Settlement orders DELIVERED in the window." }),
    deliveredWithoutStuck: z
      .number()
      .nullable()
      .openapi({ description: "Of those, the share (0 to 1) never STUCK on the way; null when none." }),
    bySourceChain: z.array(z.object({ chainId: z.number().int(), name: z.string(), ...timing })),
    byLeg: z.array(z.object({ leg: z.enum(["attestation", "mint", "route", "delivery"]), ...timing })),
    openIncidents: z.number().int().openapi({ description: "Orders STUCK now." }),
    vendors: z.array(
      z.object({
        vendor: z.string(),
        status: z.enum(["up", "degraded", "unknown"]),
        lastSuccessAt: z.string().datetime().nullable(),
      }),
    ),
  })
  .openapi("ServiceStatus");

export const route = createRoute({
  method: "get",
  path: "/status",
  operationId: "getStatus",
  summary: "Public status: measured settlement times, incidents and vendors",
  description:
    "No key. The settlement orders DELIVERED in the last 24 hours and their times from the burn to DELIVERED, p50 and p95 per source chain and per leg, measured from the orders' own timelines; the share delivered without ever being STUCK; the orders STUCK now; each polled vendor's health. Never an address, amount or order id. HTML, or JSON with `Accept: application/json` (docs/platform.md, Status page).",
  tags: ["Service"],
  security: [],
  responses: {
    200: {
      description: "The status",
      content: {
        "application/json": { schema: statusSchema },
        "text/html": { schema: z.string() },
      },
    },
    ...errorResponses([], "none"),
  },
});

/** What this operation answers, for its callers and tests. */
export type GetStatusResponse = ResponseBody<typeof route, 200>;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const status = await serviceStatus(c.get("services"));
    c.header("Cache-Control", "public, max-age=30");
    if ((c.req.header("accept") ?? "").includes("application/json")) return c.json(status, 200);
    c.header(
      "Content-Security-Policy",
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    return c.html(<StatusPage status={status} />, 200);
  });
}

const seconds = (value: number | null) => (value === null ? "—" : `${value} s`);

function StatusPage(props: { status: ServiceStatus }) {
  const { status } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>COPm settlement status</title>
        <style>
          {
            "body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:48rem;padding:0 1rem;color:#1f2937}table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #e5e7eb}td.num{text-align:right}"
          }
        </style>
      </head>
      <body>
        <h1>COPm settlement status</h1>
        <p>
          Measured from the service's own order timelines over the last {status.windowHours} hours, at{" "}
          {status.generatedAt}.
        </p>
        <p id="delivered">
          {status.delivered} settlements delivered
          {status.deliveredWithoutStuck === null
            ? "."
            : `; ${Math.round(status.deliveredWithoutStuck * 1000) / 10}% without ever being stuck.`}{" "}
          Open incidents (orders stuck now): <strong id="open-incidents">{status.openIncidents}</strong>.
        </p>
        <h2>From burn to delivery, by source chain</h2>
        <table>
          <thead>
            <tr>
              <th>Source chain</th>
              <th>Delivered</th>
              <th>p50</th>
              <th>p95</th>
            </tr>
          </thead>
          <tbody>
            {status.bySourceChain.map((row) => (
              <tr data-chain-id={String(row.chainId)}>
                <td>{row.name}</td>
                <td class="num">{row.count}</td>
                <td class="num">{seconds(row.p50Seconds)}</td>
                <td class="num">{seconds(row.p95Seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>By leg</h2>
        <table>
          <thead>
            <tr>
              <th>Leg</th>
              <th>Measured</th>
              <th>p50</th>
              <th>p95</th>
            </tr>
          </thead>
          <tbody>
            {status.byLeg.map((row) => (
              <tr data-leg={row.leg}>
                <td>{row.leg}</td>
                <td class="num">{row.count}</td>
                <td class="num">{seconds(row.p50Seconds)}</td>
                <td class="num">{seconds(row.p95Seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Vendors</h2>
        <ul>
          {status.vendors.map((vendor) => (
            <li data-vendor={vendor.vendor}>
              {vendor.vendor}: {vendor.status}
            </li>
          ))}
        </ul>
      </body>
    </html>
  );
}
