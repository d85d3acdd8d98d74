import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_BODY_SCHEMAS, eventExamples } from "../../functions/webhooks/catalog";
import { EVENT_TYPES } from "../../lib/webhooks/event-types";
import { createHarness, type Harness } from "../harness/app";

interface WebhookOperation {
  security: unknown[];
  parameters: Array<{ in: string; name: string; required?: boolean }>;
  requestBody: { content: { "application/json": { schema: unknown; example: { type: string } } } };
  responses: Record<string, unknown>;
}

describe("the event catalog in the OpenAPI document", () => {
  let h: Harness;
  let webhooks: Record<string, { post: WebhookOperation }>;
  beforeAll(async () => {
    h = await createHarness();
    const document = (await (await h.app.request("/openapi.json")).json()) as {
      webhooks: typeof webhooks;
    };
    webhooks = document.webhooks;
  });
  afterAll(() => h.close());

  it("lists every event type under webhooks, with the Standard Webhooks headers, no bearer key and an example", () => {
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const operation = webhooks[type]?.post;
      expect(operation?.security, type).toEqual([]);
      expect(
        operation?.parameters.filter((p) => p.in === "header" && p.required).map((p) => p.name),
        type,
      ).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      expect(operation?.requestBody.content["application/json"].example.type).toBe(type);
      expect(Object.keys(operation?.responses ?? {})).toEqual(["200", "410", "default"]);
    }
  });

  it("gives each type an example its own body schema accepts, and refuses an example under another type", () => {
    for (const type of EVENT_TYPES) {
      const parsed = EVENT_BODY_SCHEMAS[type].safeParse(eventExamples()[type]);
      expect(parsed.error?.issues ?? [], type).toEqual([]);
    }
    const burned = eventExamples()["settlement.order.burned"];
    expect(EVENT_BODY_SCHEMAS["settlement.order.delivered"].safeParse(burned).success).toBe(false);
    expect(EVENT_BODY_SCHEMAS["webhook.test"].safeParse(burned).success).toBe(false);
  });

  it("shows the order in each settlement example at the status its type names", () => {
    const statusOf = (type: string) =>
      eventExamples()[type as keyof ReturnType<typeof eventExamples>].data as {
        status: string;
        health: string;
      };
    expect(statusOf("settlement.order.burned").status).toBe("BURNED");
    expect(statusOf("settlement.order.delivered").status).toBe("DELIVERED");
    expect(statusOf("settlement.order.stuck").health).toBe("STUCK");
    expect(statusOf("settlement.order.recovered").health).toBe("HEALTHY");
  });
});
