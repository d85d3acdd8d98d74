import type { OpenAPIHono } from "@hono/zod-openapi";
import { type DashboardContext, formField, requirePermission } from "../../lib/http/dashboard-frame";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import {
  deleteEndpoint,
  type EndpointScope,
  integrationScope as endpointScopeOf,
  putEndpoint,
  rotateSecret,
  sendTestEvent,
} from "../../lib/webhooks/endpoints";
import { replayEvent } from "../../lib/webhooks/replay";
import { integrationScope } from "./integration";
import { notFoundPage } from "./not-found";
import { subscribableTypes } from "./webhooks-endpoint";
import {
  type ShownSecret,
  WEBHOOKS_PATH,
  type WebhooksDone,
  webhooksHref,
  webhooksPage,
} from "./webhooks-page";

/**
 * The webhooks page's actions, each the same verb as the partner API's webhook routes
 * (functions/webhooks/*.ts): PUT semantics for the endpoint, rotation, deletion, a test event, a
 * replay. A new secret is shown in the answer that made it and never again; everything else answers
 * 303 to the page (Post/Redirect/Get).
 */
export function registerActions(app: OpenAPIHono<AppEnv>) {
  app.post(`${WEBHOOKS_PATH}/endpoint`, requirePermission("webhooks:write"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.current) return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
    const url = await formField(c, "url");
    const checked = (await c.req.parseBody({ all: true })).eventTypes;
    const typed = (Array.isArray(checked) ? checked : checked === undefined ? [] : [checked]).map((value) =>
      typeof value === "string" ? value : "",
    );
    try {
      const eventTypes = subscribableTypes(typed);
      const result = await putEndpoint(
        c.get("services"),
        await endpointScopeOf(c.get("services"), scope.current.id),
        {
          url,
          ...(eventTypes.length > 0 ? { eventTypes } : {}),
        },
      );
      if (result.secret === undefined) return c.redirect(webhooksHref(scope.current.id, "saved"), 303);
      return webhooksPage(c, scope, { secret: { value: result.secret, kind: "created" } });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.status(ERRORS[error.code].status);
      return webhooksPage(c, scope, { formError: error, form: { url, eventTypes: typed } });
    }
  });

  app.post(`${WEBHOOKS_PATH}/endpoint/rotate`, requirePermission("webhooks:write"), (c) =>
    act(c, async (scope) => {
      const rotated = await rotateSecret(c.get("services"), scope);
      return {
        secret: {
          value: rotated.secret,
          kind: "rotated",
          previousUntil: rotated.endpoint.previousSecretValidUntil,
        },
      };
    }),
  );

  app.post(`${WEBHOOKS_PATH}/endpoint/delete`, requirePermission("webhooks:write"), (c) =>
    act(c, async (scope) => {
      await deleteEndpoint(c.get("services"), scope);
      return { done: "deleted" };
    }),
  );

  app.post(`${WEBHOOKS_PATH}/endpoint/test`, requirePermission("webhooks:write"), (c) =>
    act(c, async (scope) => {
      await sendTestEvent(c.get("services"), scope);
      return { done: "test" };
    }),
  );

  app.post(`${WEBHOOKS_PATH}/events/:eventId/replay`, requirePermission("webhooks:write"), async (c) => {
    const scope = await integrationScope(c);
    if (!scope?.partner || !scope.current)
      return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
    try {
      await replayEvent(scope.partner, c.req.param("eventId"));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "EVENT_NOT_FOUND") {
        return notFoundPage(c, { section: "webhooks", back: webhooksHref(scope.current.id) });
      }
      c.status(ERRORS[error.code].status);
      return webhooksPage(c, scope, { actionError: error });
    }
    return c.redirect(webhooksHref(scope.current.id, "replayed"), 303);
  });
}

/**
 * An endpoint action: the endpoint scope of the chosen integration, one verb, then either the page
 * showing a new secret or a redirect to the page with its `done` flag. A refusal re-renders the page
 * with the error and its status, having changed nothing.
 */
async function act(
  c: DashboardContext,
  verb: (scope: EndpointScope) => Promise<{ secret: ShownSecret } | { done: WebhooksDone }>,
): Promise<Response> {
  const scope = await integrationScope(c);
  if (!scope?.current) return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
  try {
    const outcome = await verb(await endpointScopeOf(c.get("services"), scope.current.id));
    if ("secret" in outcome) return webhooksPage(c, scope, { secret: outcome.secret });
    return c.redirect(webhooksHref(scope.current.id, outcome.done), 303);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    c.status(ERRORS[error.code].status);
    return webhooksPage(c, scope, { actionError: error });
  }
}
