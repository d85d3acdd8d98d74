// `npm run demo:payout`: one BRE-B payout through the public API against a running `npm run dev`
// (dev/demo-payout-flow.ts), from the email code to `completed`, and one destination_mismatch.
import { runDemoPayout } from "./demo-payout-flow";
import { LOCAL_ADMIN_TOKEN } from "./local-defaults";

await runDemoPayout({
  apiUrl: process.env.API_URL ?? "http://127.0.0.1:8787",
  adminToken: process.env.ADMIN_TOKEN || LOCAL_ADMIN_TOKEN,
  log: (line) => console.log(line),
});
