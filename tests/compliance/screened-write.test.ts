import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowAddress, deniedFirst, denyAddress, insertUnlessDenied } from "../../lib/compliance";
import { ApiError } from "../../lib/kernel/errors/api-error";
import { createHarness, type Harness } from "../harness/app";
import { quietContext } from "../harness/context";

/**
 * A write that reads the deny list in its own statement (lib/compliance/screened-write.ts): its
 * answer when a listing is made or lifted between the write and the list's read, and which refusal
 * a listed party hears. The inserts here stand for the quote's and the order's, each call one run of
 * the statement; the listings are real rows.
 */
let h: Harness;
let ctx: ReturnType<typeof quietContext>;
beforeAll(async () => {
  h = await createHarness();
  ctx = quietContext(h);
}, 60_000);
afterAll(() => h.close());

const STAGE = "QUOTE";
const party = () => ({
  address: privateKeyToAccount(generatePrivateKey()).address,
  field: "body.destinationAddress",
});
const list = (address: `0x${string}`) => denyAddress(ctx, { address, reason: "test" });
const lift = (address: `0x${string}`) => allowAddress(ctx, { address, reason: "test" });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: unknown) => (error instanceof ApiError ? error.code : String(error)),
  );

describe("insertUnlessDenied", () => {
  it("answers the row the insert wrote, in one statement", async () => {
    let runs = 0;
    const row = await insertUnlessDenied(ctx, [party()], STAGE, async () => [++runs]);
    expect([row, runs]).toEqual([1, 1]);
  });

  it("is 403 SANCTIONED_ADDRESS when the insert wrote nothing and a party is listed", async () => {
    const listed = party();
    await list(listed.address);
    let runs = 0;
    const refused = insertUnlessDenied(ctx, [party(), listed], STAGE, async () => {
      runs += 1;
      return [];
    });
    await expect(refused).rejects.toMatchObject({
      code: "SANCTIONED_ADDRESS",
      options: { problems: [{ field: "body.destinationAddress" }] },
    });
    expect(runs).toBe(1);
  });

  it("writes once more when the listing that refused the insert was lifted before the list was read", async () => {
    const listed = party();
    await list(listed.address);
    let runs = 0;
    const row = await insertUnlessDenied(ctx, [listed], STAGE, async () => {
      runs += 1;
      if (runs === 1) {
        await lift(listed.address);
        return [];
      }
      return ["written"];
    });
    expect([row, runs]).toEqual(["written", 2]);
  });

  it("is 403 when the party is listed again before the second run, never an empty answer", async () => {
    const listed = party();
    await list(listed.address);
    let runs = 0;
    const refused = insertUnlessDenied(ctx, [listed], STAGE, async () => {
      runs += 1;
      if (runs === 1) await lift(listed.address);
      else await list(listed.address);
      return [];
    });
    expect(await codeOf(refused)).toBe("SANCTIONED_ADDRESS");
    expect(runs).toBe(2);
  });

  it("answers undefined when nobody is listed and the insert wrote nothing twice (a unique index's conflict)", async () => {
    let runs = 0;
    const row = await insertUnlessDenied(ctx, [party()], STAGE, async () => {
      runs += 1;
      return [];
    });
    expect([row, runs]).toEqual([undefined, 2]);
  });
});

describe("deniedFirst", () => {
  const limited = () => Promise.reject(new ApiError("LIMIT_EXCEEDED", { stage: STAGE }));

  it("tells a listed party SANCTIONED_ADDRESS instead of the refusal the work raised", async () => {
    const listed = party();
    await list(listed.address);
    expect(await codeOf(deniedFirst(ctx, [listed], STAGE, limited))).toBe("SANCTIONED_ADDRESS");
  });

  it("passes the work's refusal on when nobody is listed, and its answer when it has one", async () => {
    expect(await codeOf(deniedFirst(ctx, [party()], STAGE, limited))).toBe("LIMIT_EXCEEDED");
    expect(await deniedFirst(ctx, [party()], STAGE, async () => "priced")).toBe("priced");
  });

  it("reads the list only on a refusal", async () => {
    h.queries.length = 0;
    await deniedFirst(ctx, [party()], STAGE, async () => "priced");
    expect(h.queries.filter((sql) => /denied_addresses/.test(sql))).toEqual([]);
  });
});
