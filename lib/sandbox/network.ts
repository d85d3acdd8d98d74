import type { ChainDescriptor } from "../kernel/chain/descriptor";
import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";

/** The sandbox helpers exist in mock mode only; in live mode their routes do not exist. */
export function assertSandbox(ctx: ServiceContext): void {
  if (ctx.config.MODE !== "mock") throw new ApiError("NOT_FOUND");
}

export type SandboxChainView = ChainDescriptor & { rpcUrl: string };

/** What a partner's app or a test needs to sign real transactions against the local chains. */
export function describeSandboxNetwork(ctx: ServiceContext): { chains: SandboxChainView[] } {
  assertSandbox(ctx);
  return {
    chains: ctx.chains.chains.map(({ client: _client, ...descriptor }) => descriptor),
  };
}
