import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { ERRORS } from "../../lib/kernel/errors/registry";
import { integrationScope } from "./integration";
import { notFoundPage } from "./not-found";
import { registerActions } from "./webhooks-actions";
import { deliveriesQuery } from "./webhooks-deliveries";
import { WEBHOOKS_PATH, webhooksHref, webhooksPage } from "./webhooks-page";

/**
 * The chosen integration's webhook endpoint and the organization's deliveries: GET shows the page
 * (webhooks-page.tsx), the actions post to its paths (webhooks-actions.tsx).
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.get(WEBHOOKS_PATH, async (c) => {
    const scope = await integrationScope(c);
    if (!scope) return notFoundPage(c, { section: "webhooks", back: WEBHOOKS_PATH });
    const query = deliveriesQuery(c);
    if (query instanceof ApiError) {
      c.status(ERRORS[query.code].status);
      return webhooksPage(c, scope, { actionError: query, query: null });
    }
    return webhooksPage(c, scope, { done: c.req.query("done"), query });
  });

  // An action's URL opened rather than posted (e.g. the integration chooser of a page an action
  // answered) shows the page.
  for (const path of ["/endpoint", "/endpoint/rotate", "/endpoint/delete", "/endpoint/test"]) {
    app.get(`${WEBHOOKS_PATH}${path}`, (c) => c.redirect(webhooksHref(c.req.query("integration")), 303));
  }
  app.get(`${WEBHOOKS_PATH}/events/:eventId/replay`, (c) =>
    c.redirect(webhooksHref(c.req.query("integration")), 303),
  );

  registerActions(app);
}
