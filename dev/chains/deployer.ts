import { type Abi, createTestClient, getAddress, type Hex, http, type TransactionReceipt } from "viem";
import { sandboxPublicClient, sandboxWalletClient } from "./clients";
import type { CompiledContracts, SandboxContractName } from "./compile";
import { sandboxOperator } from "./operator";
import type { Address, Placement } from "./types";
import { sandboxViemChain } from "./viem-chain";

interface DeployTarget {
  chainId: number;
  name: string;
  rpcUrl: string;
}

/** Sends the operator's setup transactions to one chain, one at a time, each confirmed before the next. */
export class ChainDeployer {
  readonly publicClient: ReturnType<typeof sandboxPublicClient>;
  readonly walletClient: ReturnType<typeof sandboxWalletClient>;
  /** How many times each contract name was deployed on this chain, for placements. */
  readonly #deployed = new Map<string, number>();

  private constructor(
    private readonly target: DeployTarget,
    private readonly compiled: CompiledContracts,
    private readonly placements: readonly Placement[] = [],
  ) {
    this.publicClient = sandboxPublicClient(target);
    this.walletClient = sandboxWalletClient(target, sandboxOperator);
  }

  /**
   * Moves the operator's nonce to `firstNonce` first: contract addresses then depend only on the
   * deployment order, which is fixed, so they are the same on every start.
   */
  static async open(
    rpcUrl: string,
    facts: { chainId: number; name: string; firstNonce: number },
    compiled: CompiledContracts,
    placements: readonly Placement[] = [],
  ): Promise<ChainDeployer> {
    const target = { chainId: facts.chainId, name: facts.name, rpcUrl };
    if (facts.firstNonce > 0) {
      const testClient = createTestClient({
        chain: sandboxViemChain(target),
        mode: "hardhat",
        transport: http(rpcUrl),
      });
      await testClient.setNonce({ address: sandboxOperator.address, nonce: facts.firstNonce });
    }
    return new ChainDeployer(target, compiled, placements);
  }

  /** Deploys one of the sandbox's own contracts, compiled from dev/chains/contracts. */
  deploy(name: SandboxContractName, args: readonly unknown[] = []): Promise<Address> {
    return this.deployArtifact(name, this.compiled[name], args);
  }

  /** Deploys a compiled contract: the sandbox's own or a protocol's published artifact. */
  async deployArtifact(
    name: string,
    artifact: { abi: Abi; bytecode: Hex },
    args: readonly unknown[] = [],
  ): Promise<Address> {
    const receipt = await this.confirm(
      this.walletClient.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
      `deploy ${name} on ${this.target.name}`,
    );
    if (!receipt.contractAddress) throw new Error(`deploy ${name}: no contract address in the receipt`);
    const occurrence = (this.#deployed.get(name) ?? 0) + 1;
    this.#deployed.set(name, occurrence);
    const placed = this.placements.find(
      (placement) => placement.contract === name && (placement.occurrence ?? 1) === occurrence,
    );
    if (!placed) return getAddress(receipt.contractAddress);
    await placeAt(this.target.rpcUrl, receipt.transactionHash, receipt.contractAddress, placed.address);
    return getAddress(placed.address);
  }

  /** Waits for a sent transaction's receipt and insists that it succeeded. */
  async confirm(sent: Promise<Hex>, what: string): Promise<TransactionReceipt> {
    const hash = await sent;
    const receipt = await this.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${what}: transaction ${hash} reverted`);
    return receipt;
  }
}

/**
 * Foundry's `vm.etch`, with Hardhat's methods: the code a deployment left at `deployed`, and every
 * storage slot its constructor wrote (read from the deployment's trace: the SSTOREs of the created
 * contract's own frame), put at `target` with `hardhat_setCode` and `hardhat_setStorageAt`. What
 * the constructor did to other contracts stays where it is; initializers and setup are then called
 * at `target` itself, so every reference between contracts names the placed addresses.
 */
async function placeAt(rpcUrl: string, deployment: Hex, deployed: Address, target: Address): Promise<void> {
  const client = createTestClient({ mode: "hardhat", transport: http(rpcUrl) });
  const request = (method: string, params: unknown[]) => client.request({ method, params } as never);
  const trace = (await request("debug_traceTransaction", [
    deployment,
    { disableStack: true, disableMemory: true },
  ])) as { structLogs: Array<{ op: string; depth: number; storage?: Record<string, Hex> }> };
  const storage: Record<string, Hex> = {};
  for (const step of trace.structLogs) {
    if (step.op === "SSTORE" && step.depth === 1 && step.storage) Object.assign(storage, step.storage);
  }
  const code = (await request("eth_getCode", [deployed, "latest"])) as Hex;
  await request("hardhat_setCode", [target, code]);
  for (const [slot, value] of Object.entries(storage)) {
    await request("hardhat_setStorageAt", [target, slot, value]);
  }
}
