import { createPublicClient, createTestClient, http, type PrivateKeyAccount, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { compileSandboxContracts, sandboxViemChain } from "../../dev/chains";
import { ChainDeployer } from "../../dev/chains/deployer";
import { startSandboxRpcServers } from "../../dev/chains/json-rpc-servers";
import { CHAIN_ROLES } from "../../dev/chains/roles";
import type { ChainRole } from "../../dev/chains/types";

/**
 * One bare local chain of the sandbox's kind for `role`, with nothing deployed: for a suite that
 * deploys and proves one protocol's contracts on their own, before the sandbox network uses them.
 */
export async function startScratchChain(role: ChainRole) {
  const [compiled, servers] = await Promise.all([
    compileSandboxContracts(),
    startSandboxRpcServers("127.0.0.1", {}),
  ]);
  const chain = { ...CHAIN_ROLES[role], rpcUrl: servers.rpcUrls[role] };
  const deployer = await ChainDeployer.open(chain.rpcUrl, { ...CHAIN_ROLES[role], firstNonce: 0 }, compiled);
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  const testClient = createTestClient({
    chain: sandboxViemChain(chain),
    mode: "hardhat",
    transport: http(chain.rpcUrl),
  });
  return {
    chain,
    deployer,
    client,
    /** A new wallet holding 1 native coin for gas. */
    async freshWallet(): Promise<PrivateKeyAccount> {
      const account = privateKeyToAccount(generatePrivateKey());
      await testClient.setBalance({ address: account.address, value: parseEther("1") });
      return account;
    },
    close: servers.close,
  };
}

export type ScratchChain = Awaited<ReturnType<typeof startScratchChain>>;
