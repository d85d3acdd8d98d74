import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { squawk } from "../../dev/migration-lint";

// Migrations apply before the code that needs them is deployed (docs/operations.md, "Migrations"):
// the lint refuses what would break the code still running, and passes the expand step.
const dir = mkdtempSync(join(tmpdir(), "copm-migration-lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(name: string, sql: string) {
  writeFileSync(join(dir, name), sql);
  return squawk([name], dir);
}

const TIMEOUTS = `SET LOCAL lock_timeout = '5s';--> statement-breakpoint
SET LOCAL statement_timeout = '60s';--> statement-breakpoint
`;

describe("the migration lint (squawk, .squawk.toml)", () => {
  it("refuses 0037's shape: a column made NOT NULL in the migration that adds it", () => {
    const { code, report } = lint(
      "0038_facts.sql",
      `${TIMEOUTS}ALTER TABLE "settlement_orders" ADD COLUMN "summary_facts" text;--> statement-breakpoint
UPDATE "settlement_orders" SET "summary_facts" = "id";--> statement-breakpoint
ALTER TABLE "settlement_orders" ALTER COLUMN "summary_facts" SET NOT NULL;`,
    );
    expect(code).toBe(1);
    expect(report).toContain("adding-not-nullable-field");
  });

  it("refuses a NOT NULL column without a default, a dropped column and a renamed one", () => {
    const { code, report } = lint(
      "0039_breaking.sql",
      `${TIMEOUTS}ALTER TABLE "settlement_orders" ADD COLUMN "note" text NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_orders" DROP COLUMN "reference";--> statement-breakpoint
ALTER TABLE "settlement_quotes" RENAME COLUMN "legs" TO "route_legs";`,
    );
    expect(code).toBe(1);
    expect(report).toContain("adding-required-field");
    expect(report).toContain("ban-drop-column");
    expect(report).toContain("renaming-column");
  });

  it("refuses a migration that would wait for its lock without a bound", () => {
    const { code, report } = lint(
      "0040_untimed.sql",
      `ALTER TABLE "settlement_orders" ADD COLUMN "note" text;`,
    );
    expect(code).toBe(1);
    expect(report).toContain("require-lock-timeout");
    expect(report).toContain("require-statement-timeout");
  });

  it("passes the expand step: a nullable column, a defaulted one, and a new table with its key and index", () => {
    const { code, report } = lint(
      "0041_expand.sql",
      `${TIMEOUTS}ALTER TABLE "settlement_orders" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "settlement_orders" ADD COLUMN "flagged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "order_notes" ("id" text PRIMARY KEY NOT NULL, "order_id" text NOT NULL);--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."settlement_orders"("id");--> statement-breakpoint
CREATE INDEX "order_notes_order_idx" ON "order_notes" USING btree ("order_id");`,
    );
    expect(report).toBe("");
    expect(code).toBe(0);
  });
});
