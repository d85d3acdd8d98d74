import { type Abi, createTestClient, getAddress, type Hex, http, type TransactionReceipt } from "viem";
import { sandboxPublicClient, sandboxWalletClient } from "./clients";
import type { CompiledContracts, SandboxContractName } from "./compile";
import { sandboxOperator } from "./operator";
import type { Address } from "./types";
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

  private constructor(
    private readonly target: DeployTarget,
    private readonly compiled: CompiledContracts,
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
    return new ChainDeployer(target, compiled);
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
    return getAddress(receipt.contractAddress);
  }

  /** Waits for a sent transaction's receipt and insists that it succeeded. */
  async confirm(sent: Promise<Hex>, what: string): Promise<TransactionReceipt> {
    const hash = await sent;
    const receipt = await this.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${what}: transaction ${hash} reverted`);
    return receipt;
  }
}
