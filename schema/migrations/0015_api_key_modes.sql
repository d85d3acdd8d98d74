-- Keys issued before modes existed all carry the copm_live_ prefix: they are live keys. A local
-- (mock) database's such keys stop working in mock mode; `npm run dev` re-issues them as test keys.
ALTER TABLE "api_keys" ADD COLUMN "mode" text NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "mode" DROP DEFAULT;
