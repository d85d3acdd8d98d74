import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route as confirmPayout } from "../../functions/payouts/confirm-payout";
import { brebPayoutEvents, brebPayouts, webhookEvents } from "../../schema";
import { createHarness, type Harness } from "../harness/app";
import { bodyOf, errorOf } from "../harness/bodies";
import {
  approvedUser,
  confirmRequest,
  createdPayout,
  payoutBody,
  quoteFor,
  requestPayout,
  sendDeposit,
} from "../harness/payouts";
import { createTenant, type Tenant } from "../harness/tenants";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn("payouts.concurrency: TEST_DATABASE_URL is not set; skipping the real Postgres races.");

const RACERS = 20;

describe.skipIf(!serverUrl)("payout races on real PostgreSQL", () => {
  let h: Harness;
  let tenant: Tenant;
  let user: Awaited<ReturnType<typeof approvedUser>>;
  beforeAll(async () => {
    h = await createHarness({ chains: true, payouts: true, databaseUrl: serverUrl as string });
    tenant = await createTenant(h);
    user = await approvedUser(h, tenant);
  }, 60_000);
  afterAll(() => h?.close());

  const payoutsOf = (quoteId: string) =>
    h.database.db.select().from(brebPayouts).where(eq(brebPayouts.quoteId, quoteId));

  it(`${RACERS} parallel creates with one key and one body make one payout and ${RACERS} identical 201 answers`, async () => {
    const quote = await quoteFor(h, tenant);
    const body = payoutBody(quote.quoteId, user);
    const responses = await Promise.all(
      Array.from({ length: RACERS }, () => requestPayout(h, tenant, "race-same-key", body)),
    );
    const texts = await Promise.all(responses.map((response) => response.text()));
    expect(
      responses.map((response) => response.status),
      texts.find((text) => !text.includes('"payout"')),
    ).toEqual(Array(RACERS).fill(201));
    expect(new Set(texts).size).toBe(1);
    const rows = await payoutsOf(quote.quoteId);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(texts[0] ?? "{}").payout.payoutId).toBe(rows[0]?.id);
    const timeline = await h.database.db
      .select()
      .from(brebPayoutEvents)
      .where(eq(brebPayoutEvents.payoutId, rows[0]?.id ?? ""));
    expect(timeline.map((entry) => entry.status)).toEqual(["awaiting_deposit"]);
  });

  it(`${RACERS} parallel creates on one quote under ${RACERS} keys make one payout; the rest are QUOTE_ALREADY_USED`, async () => {
    const quote = await quoteFor(h, tenant);
    const body = payoutBody(quote.quoteId, user);
    const responses = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => requestPayout(h, tenant, `race-key-${i}`, body)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    const refusals = await Promise.all(
      responses.filter((response) => response.status !== 201).map((response) => errorOf(response)),
    );
    expect(refusals.map((error) => `${error.status} ${error.code}`)).toEqual(
      Array(RACERS - 1).fill("409 QUOTE_ALREADY_USED"),
    );
    expect(await payoutsOf(quote.quoteId)).toHaveLength(1);
  });

  it("parallel creates under one key with two bodies make one payout: its body replays, the other is IDEMPOTENCY_CONFLICT", async () => {
    const quote = await quoteFor(h, tenant);
    const bodies = [
      payoutBody(quote.quoteId, user),
      payoutBody(quote.quoteId, user, { accountOwnerName: "Bea Gómez" }),
    ];
    const responses = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        requestPayout(h, tenant, "race-two-bodies", bodies[i % 2] ?? {}),
      ),
    );
    const rows = await payoutsOf(quote.quoteId);
    expect(rows).toHaveLength(1);
    const winner = rows[0]?.accountOwnerName;
    const answers = await Promise.all(
      responses.map(async (response, i) => ({
        own: bodies[i % 2]?.accountOwnerName === winner,
        status: response.status,
        text: await response.text(),
      })),
    );
    const replays = answers.filter((answer) => answer.own);
    expect(replays.map((answer) => answer.status)).toEqual(Array(RACERS / 2).fill(201));
    expect(new Set(replays.map((answer) => answer.text)).size).toBe(1);
    const conflicts = answers.filter((answer) => !answer.own);
    expect(conflicts.map((answer) => `${answer.status} ${JSON.parse(answer.text).error.code}`)).toEqual(
      Array(RACERS / 2).fill("409 IDEMPOTENCY_CONFLICT"),
    );
  });

  it(`${RACERS} parallel confirms of one deposit move the payout once: one timeline entry, one event, one job`, async () => {
    const creation = await createdPayout(h, tenant, user);
    const payoutId = creation.payout.payoutId;
    const hash = await sendDeposit(h, user, creation);
    const jobsBefore = h.jobs.pending().length;
    const responses = await Promise.all(
      Array.from({ length: RACERS }, () => confirmRequest(h, tenant, payoutId, hash)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(RACERS).fill(200));
    const bodies = await Promise.all(responses.map((response) => bodyOf(response, confirmPayout, 200)));
    expect(bodies.map((body) => body.status)).toEqual(Array(RACERS).fill("deposit_confirmed"));
    const timeline = await h.database.db
      .select()
      .from(brebPayoutEvents)
      .where(eq(brebPayoutEvents.payoutId, payoutId));
    expect(timeline.map((entry) => entry.status).sort()).toEqual(["awaiting_deposit", "deposit_confirmed"]);
    const events = await h.database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.subjectId, payoutId), eq(webhookEvents.type, "payout.deposit_confirmed")));
    expect(events).toHaveLength(1);
    const jobs = h.jobs.pending().slice(jobsBefore);
    expect(jobs.filter((job) => job.rawBody.includes(payoutId))).toHaveLength(1);
    const [row] = await h.database.db.select().from(brebPayouts).where(eq(brebPayouts.id, payoutId));
    expect(row).toMatchObject({ status: "deposit_confirmed", depositTxHash: hash.toLowerCase() });
  });
});
