// `npm run db:migrate`: applies schema/migrations to DATABASE_URL (Neon or any Postgres), or to
// the local embedded database under .data/pglite when DATABASE_URL is unset.

import { openPglite, openPostgres } from "./database";
import { localDataDir } from "./paths";

const url = process.env.DATABASE_URL;
const opened = url ? await openPostgres(url, 1) : await openPglite(localDataDir("pglite"));
await opened.close();
console.log(`migrations applied to ${url ? "DATABASE_URL" : ".data/pglite"}`);
