import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineJob } from "../../lib/kernel/jobs/definition";
import { signQStashDelivery } from "../../lib/kernel/jobs/signature";
import { jobDeliveries } from "../../schema";
import { createHarness, type Harness, TEST_PUBLIC_URL, TEST_SIGNING_KEYS } from "../harness/app";

const runs: Array<{ note: string; messageId: string; retried: number; at: string }> = [];
let failuresToInject = 0;

const recordNote = defineJob({
  kind: "test.record-note",
  payload: z.object({ note: z.string() }),
  async run(ctx, payload, delivery) {
    if (failuresToInject > 0) {
      failuresToInject -= 1;
      throw new Error("injected failure");
    }
    runs.push({ ...payload, ...delivery, at: ctx.clock.now().toISOString() });
  },
});

const url = `${TEST_PUBLIC_URL}/internal/jobs/${recordNote.kind}`;

/**
 * A delivery to a job endpoint, signed as QStash would. A test may sign another body, another URL
 * or with another key than it sends, to prove the check refuses each.
 */
async function signedPost(
  h: Harness,
  body: string,
  messageId: string,
  options: { key?: string; to?: string; signedUrl?: string; signedBody?: string } = {},
) {
  const to = options.to ?? url;
  const signature = await signQStashDelivery({
    signingKey: options.key ?? TEST_SIGNING_KEYS.current,
    url: options.signedUrl ?? to,
    rawBody: options.signedBody ?? body,
    messageId,
  });
  return post(h, body, signature, messageId, to);
}

/** Sends a delivery with a given signature, as a replay of a captured request would. */
function post(h: Harness, body: string, signature: string, messageId: string, to = url) {
  return h.app.request(to, {
    method: "POST",
    body,
    headers: {
      "upstash-signature": signature,
      "upstash-message-id": messageId,
      "content-type": "application/json",
    },
  });
}

const signed = (body: string, messageId: string) =>
  signQStashDelivery({ signingKey: TEST_SIGNING_KEYS.current, url, rawBody: body, messageId });

describe("jobs", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ jobCatalog: [recordNote] });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    runs.length = 0;
    failuresToInject = 0;
  });

  it("runs an enqueued job only when the clock reaches its delay and the queue is drained", async () => {
    await h.deps.jobs.enqueue(recordNote, { note: "later" }, { delaySeconds: 30 });
    expect((await h.jobs.drain()).delivered).toBe(0);
    h.clock.advance(29_000);
    expect((await h.jobs.drain()).delivered).toBe(0);
    h.clock.advance(1_000);
    expect((await h.jobs.drain()).delivered).toBe(1);
    expect(runs.map((r) => r.note)).toEqual(["later"]);
  });

  it("schedules nothing for a second enqueue with the same deduplication id", async () => {
    const first = await h.deps.jobs.enqueue(recordNote, { note: "once" }, { dedupeId: "dedupe-1" });
    const second = await h.deps.jobs.enqueue(recordNote, { note: "once" }, { dedupeId: "dedupe-1" });
    expect(second).toEqual({ messageId: first.messageId, deduplicated: true });
    await h.jobs.drain();
    expect(runs).toHaveLength(1);
  });

  it("retries a failing job on QStash's backoff, each attempt a newly signed delivery, and completes it once", async () => {
    failuresToInject = 2;
    const { messageId } = await h.deps.jobs.enqueue(recordNote, { note: "flaky" });
    expect(await h.jobs.drain()).toEqual({ delivered: 0, failedAttempts: 1, dropped: 0 });
    h.clock.advance(1_000); // e^0 = 1 s after the first failure
    expect(await h.jobs.drain()).toEqual({ delivered: 0, failedAttempts: 1, dropped: 0 });
    h.clock.advance(12_000); // e^2.5 ≈ 12.2 s after the second: not yet
    expect((await h.jobs.drain()).delivered).toBe(0);
    h.clock.advance(200);
    expect((await h.jobs.drain()).delivered).toBe(1);
    expect(runs).toEqual([expect.objectContaining({ note: "flaky", messageId, retried: 2 })]);
    const claims = await h.database.db
      .select()
      .from(jobDeliveries)
      .where(eq(jobDeliveries.messageId, messageId));
    expect(claims.map((c) => [c.retried, c.failedAt !== null, c.completedAt !== null]).sort()).toEqual([
      [0, true, false],
      [1, true, false],
      [2, false, true],
    ]);
    expect(new Set(claims.map((c) => c.deliveryId)).size).toBe(3);
  });

  it("acknowledges the same signed delivery sent again without running the job, whatever message id it claims", async () => {
    const body = JSON.stringify({ note: "replayed" });
    const signature = await signed(body, "msg_dup_1");
    expect((await post(h, body, signature, "msg_dup_1")).status).toBe(200);
    for (const messageId of ["msg_dup_1", "msg_edited_by_a_replayer"]) {
      const again = await post(h, body, signature, messageId);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ outcome: "duplicate" });
    }
    expect(runs).toHaveLength(1);
    // QStash's own redelivery of the message is signed afresh: it runs (jobs are idempotent).
    expect((await signedPost(h, body, "msg_dup_1")).status).toBe(200);
    expect(runs).toHaveLength(2);
  });

  it("accepts a delivery signed with the next signing key (key rotation)", async () => {
    const response = await signedPost(h, JSON.stringify({ note: "rotated" }), "msg_next_1", {
      key: TEST_SIGNING_KEYS.next,
    });
    expect(response.status).toBe(200);
    expect(runs.map((r) => r.note)).toEqual(["rotated"]);
  });
});

describe("job endpoint security", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ jobCatalog: [recordNote] });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    runs.length = 0;
  });

  it("answers 401 and runs nothing without a signature, in the documented error shape", async () => {
    const response = await h.app.request(url, { method: "POST", body: '{"note":"x"}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error: {
        code: "JOB_SIGNATURE_INVALID",
        retryable: false,
        nextAction: "FIX_REQUEST",
        fundsMoved: false,
      },
    });
    expect(runs).toHaveLength(0);
  });

  it("answers 401 for a signature made with another key", async () => {
    const response = await signedPost(h, '{"note":"x"}', "msg_forged", { key: "an attacker's key" });
    expect(response.status).toBe(401);
    expect(runs).toHaveLength(0);
  });

  it("answers 401 when the body differs from the one signed", async () => {
    const response = await signedPost(h, '{"note":"big"}', "msg_swap", { signedBody: '{"note":"small"}' });
    expect(response.status).toBe(401);
    expect(runs).toHaveLength(0);
  });

  it("answers 401 for a signature made for another job's URL", async () => {
    const response = await signedPost(h, '{"note":"x"}', "msg_other", {
      signedUrl: `${TEST_PUBLIC_URL}/internal/jobs/other.kind`,
    });
    expect(response.status).toBe(401);
  });

  it("answers 400 for a signed payload of the wrong shape and 404 for an unknown kind, in the documented error shape", async () => {
    const bad = await signedPost(h, '{"note":42}', "msg_bad_shape");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: "INVALID_REQUEST", problems: [expect.objectContaining({ field: "body.note" })] },
    });
    const response = await signedPost(h, "{}", "msg_unknown", {
      to: `${TEST_PUBLIC_URL}/internal/jobs/no.such.kind`,
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
    expect(runs).toHaveLength(0);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("job deliveries racing on real PostgreSQL", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ jobCatalog: [recordNote], databaseUrl: serverUrl as string });
  });
  afterAll(() => h?.close());
  beforeEach(() => {
    runs.length = 0;
  });

  it("runs one of ten parallel deliveries of one signed request and answers the other nine as duplicates", async () => {
    const body = JSON.stringify({ note: "raced" });
    const signature = await signed(body, "msg_raced");
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post(h, body, signature, "msg_raced")),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    // An internal route with no schema: each answer is exactly `{ outcome }`, compared whole.
    const answers: unknown[] = await Promise.all(responses.map((r) => r.json()));
    expect(answers.map((answer) => JSON.stringify(answer)).sort()).toEqual([
      JSON.stringify({ outcome: "completed" }),
      ...Array(9).fill(JSON.stringify({ outcome: "duplicate" })),
    ]);
    expect(runs.map((r) => r.note)).toEqual(["raced"]);
  });
});
