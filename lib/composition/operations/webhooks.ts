// Made by `npm run docs` (dev/operations-table.ts) from the route modules under functions/: each module
// that exports `register` is one operation. Edit the modules, not this file.
import type { LazyOperation } from "../../http/lazy-operations";

/** The operations of functions/webhooks/. */
export const WEBHOOKS_OPERATIONS: readonly LazyOperation[] = [
  {
    load: () => import("../../../functions/webhooks/admin-delete-endpoint"),
    routes: [
      {
        method: "DELETE",
        path: "/admin/integrations/:integrationId/webhook-endpoint",
        operationId: "adminDeleteWebhookEndpoint",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/admin-get-endpoint"),
    routes: [
      {
        method: "GET",
        path: "/admin/integrations/:integrationId/webhook-endpoint",
        operationId: "adminGetWebhookEndpoint",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/admin-list-deliveries"),
    routes: [
      { method: "GET", path: "/admin/webhooks/deliveries", operationId: "adminListWebhookDeliveries" },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/admin-list-failing-endpoints"),
    routes: [
      {
        method: "GET",
        path: "/admin/webhooks/failing-endpoints",
        operationId: "adminListFailingWebhookEndpoints",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/admin-put-endpoint"),
    routes: [
      {
        method: "PUT",
        path: "/admin/integrations/:integrationId/webhook-endpoint",
        operationId: "adminPutWebhookEndpoint",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/admin-rotate-secret"),
    routes: [
      {
        method: "POST",
        path: "/admin/integrations/:integrationId/webhook-endpoint/rotate-secret",
        operationId: "adminRotateWebhookSecret",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/admin-send-test-event"),
    routes: [
      {
        method: "POST",
        path: "/admin/integrations/:integrationId/webhook-endpoint/test",
        operationId: "adminSendWebhookTestEvent",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/catalog"),
    routes: [],
  },
  {
    load: () => import("../../../functions/webhooks/delete-endpoint"),
    routes: [
      { method: "DELETE", path: "/api/integrations/webhooks/endpoint", operationId: "deleteWebhookEndpoint" },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/get-endpoint"),
    routes: [
      { method: "GET", path: "/api/integrations/webhooks/endpoint", operationId: "getWebhookEndpoint" },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/list-deliveries"),
    routes: [
      { method: "GET", path: "/api/integrations/webhooks/deliveries", operationId: "listWebhookDeliveries" },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/list-events"),
    routes: [
      { method: "GET", path: "/api/integrations/webhooks/events", operationId: "listWebhookEvents" },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/put-endpoint"),
    routes: [
      { method: "PUT", path: "/api/integrations/webhooks/endpoint", operationId: "putWebhookEndpoint" },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/replay-event"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/webhooks/events/:eventId/replay",
        operationId: "replayWebhookEvent",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/rotate-secret"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/webhooks/endpoint/rotate-secret",
        operationId: "rotateWebhookSecret",
      },
    ],
  },
  {
    load: () => import("../../../functions/webhooks/send-test-event"),
    routes: [
      {
        method: "POST",
        path: "/api/integrations/webhooks/endpoint/test",
        operationId: "sendWebhookTestEvent",
      },
    ],
  },
];
