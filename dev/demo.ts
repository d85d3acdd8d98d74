// `npm run demo [-- --source <chain id or name>]`: one whole settlement through the public API against
// a running `npm run dev` (dev/demo-flow.ts), printing the order's progress until DELIVERED and the
// COPm delivered; from the organization's default source chain unless `--source` names another.
import { parseArgs } from "node:util";
import { runDemoSettlement, UnknownSourceChainError } from "./demo-flow";
import { LOCAL_ADMIN_TOKEN } from "./local-defaults";

const { values } = parseArgs({ options: { source: { type: "string" } } });

try {
  await runDemoSettlement({
    apiUrl: process.env.API_URL ?? "http://127.0.0.1:8787",
    adminToken: process.env.ADMIN_TOKEN || LOCAL_ADMIN_TOKEN,
    log: (line) => console.log(line),
    ...(values.source === undefined ? {} : { sourceChain: values.source }),
  });
} catch (error) {
  // A mistyped chain is the caller's to fix, not a failure of the demo: the message, not a stack.
  if (!(error instanceof UnknownSourceChainError)) throw error;
  console.error(error.message);
  process.exit(1);
}
