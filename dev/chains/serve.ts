// The three sandbox chains on their fixed dev ports, on their own (npm run dev starts them with the
// rest of the stack): npx tsx dev/chains/serve.ts. Ctrl-C stops them; the chains keep no state.
import { startSandboxChains } from "./index";
import { DEV_CHAIN_PORTS } from "./roles";

const startedAt = performance.now();
const chains = await startSandboxChains({ ports: DEV_CHAIN_PORTS });
console.log(`sandbox chains ready in ${Math.round(performance.now() - startedAt)} ms`);
console.log(JSON.stringify(chains.network, null, 2));

const stop = () => {
  chains.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
