import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/http/env";
import { respondWithError } from "../../lib/http/errors";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { jobUrl } from "../../lib/kernel/jobs/jobs";
import { runJobDelivery } from "../../lib/kernel/jobs/run-delivery";

/**
 * QStash calls this with each job message. Internal: not in the partner OpenAPI document, but its
 * errors have the documented shape. The signature is checked on the raw body against the configured
 * public URL, so a caller who cannot sign with the QStash keys cannot run a job; the delivery is
 * then known by a claim of that signature (never the unsigned Upstash-Message-Id). A non-2xx answer
 * makes QStash retry.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app.post("/internal/jobs/:kind", async (c) => {
    const { jobVerifier, jobCatalog, config } = c.get("deps");
    const kind = c.req.param("kind");
    const rawBody = await c.req.text();
    const signature = c.req.header("upstash-signature");
    const verified = signature
      ? await jobVerifier.verify({ signature, rawBody, url: jobUrl(config.PUBLIC_URL, kind) })
      : undefined;
    if (!verified) return respondWithError(c, new ApiError("JOB_SIGNATURE_INVALID"));

    const messageId = c.req.header("upstash-message-id");
    const retried = Number.parseInt(c.req.header("upstash-retried") ?? "0", 10) || 0;
    const result = await runJobDelivery(c.get("services"), jobCatalog, {
      kind,
      rawBody,
      deliveryId: verified.deliveryId,
      ...(messageId ? { messageId } : {}),
      retried,
    });
    switch (result.outcome) {
      case "completed":
      case "duplicate":
        return c.json({ outcome: result.outcome }, 200);
      case "unknown_kind":
        return respondWithError(c, new ApiError("NOT_FOUND", { detail: `(no job kind ${kind})` }));
      case "invalid_payload":
        return respondWithError(
          c,
          new ApiError("INVALID_REQUEST", {
            problems: result.problems.map(({ path, message }) => ({
              field: path,
              code: "INVALID_REQUEST",
              problem: message,
            })),
          }),
        );
    }
  });
}
