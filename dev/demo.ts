// `npm run demo`: one whole settlement through the public API against a running `npm run dev`
// (dev/demo-flow.ts), printing the order's progress until DELIVERED and the COPm delivered.
import { runDemoSettlement } from "./demo-flow";
import { LOCAL_ADMIN_TOKEN } from "./local-defaults";

await runDemoSettlement({
  apiUrl: process.env.API_URL ?? "http://127.0.0.1:8787",
  adminToken: process.env.ADMIN_TOKEN || LOCAL_ADMIN_TOKEN,
  log: (line) => console.log(line),
});
