import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { jobUrl } from "../../lib/jobs/jobs";
import { runJobDelivery } from "../../lib/jobs/run-delivery";

/**
 * QStash calls this with each job message. Internal: not in the partner OpenAPI document.
 * The signature is checked on the raw body against the configured public URL, so a caller who
 * cannot sign with the QStash keys cannot run a job. A non-2xx answer makes QStash retry.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.post("/internal/jobs/:kind", async (c) => {
    const { jobVerifier, jobCatalog, config } = c.get("deps");
    const kind = c.req.param("kind");
    const rawBody = await c.req.text();
    const signature = c.req.header("upstash-signature");
    const valid =
      signature !== undefined &&
      (await jobVerifier.verify({ signature, rawBody, url: jobUrl(config.PUBLIC_URL, kind) }));
    if (!valid) return c.json({ error: "invalid or missing Upstash-Signature" }, 401);

    const messageId = c.req.header("upstash-message-id");
    if (!messageId) return c.json({ error: "missing Upstash-Message-Id" }, 400);
    const retried = Number.parseInt(c.req.header("upstash-retried") ?? "0", 10) || 0;

    const result = await runJobDelivery(c.get("services"), jobCatalog, { kind, rawBody, messageId, retried });
    switch (result.outcome) {
      case "completed":
      case "duplicate":
        return c.json({ outcome: result.outcome }, 200);
      case "unknown_kind":
        return c.json({ error: `unknown job kind ${kind}` }, 404);
      case "invalid_payload":
        return c.json({ error: "invalid job payload", problems: result.problems }, 400);
    }
  });
}
