import {
  type Address,
  encodeFunctionData,
  type Hex,
  keccak256,
  serializeErc6492Signature,
  toHex,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import {
  type ChainRole,
  compileSandboxContracts,
  sandboxChainOf,
  sandboxOperator,
  sandboxPublicClient,
  sandboxWalletClient,
} from "../../dev/chains";
import type { Harness } from "./app";

/** A smart-contract wallet on a chain (the destination unless told) that `owner` controls (dev/chains/contracts/SandboxSmartWallet.sol). */
export interface SmartWallet {
  address: Address;
  owner: PrivateKeyAccount;
  /** ERC-1271 for a deployed wallet, ERC-6492 (the factory call wrapped around it) for one not deployed yet. */
  signMessage(message: string): Promise<Hex>;
  /** The owner sends these calls from the wallet in one transaction; its hash. */
  batch(calls: Array<{ target: Address; data: Hex }>): Promise<Hex>;
}

const factories = new WeakMap<Harness, Map<ChainRole, Promise<Address>>>();

/** The wallet factory on a chain, deployed once per harness by the sandbox operator. */
function factoryOf(h: Harness, role: ChainRole): Promise<Address> {
  const ofHarness = factories.get(h) ?? new Map<ChainRole, Promise<Address>>();
  factories.set(h, ofHarness);
  const known = ofHarness.get(role);
  if (known) return known;
  const deployed = (async () => {
    const chain = chainOf(h, role);
    const { SandboxSmartWalletFactory } = await compileSandboxContracts();
    const hash = await sandboxWalletClient(chain, sandboxOperator).deployContract({
      abi: SandboxSmartWalletFactory.abi,
      bytecode: SandboxSmartWalletFactory.bytecode,
    });
    const receipt = await sandboxPublicClient(chain).waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("the wallet factory was not deployed");
    return receipt.contractAddress;
  })();
  ofHarness.set(role, deployed);
  return deployed;
}

/**
 * A smart wallet of `owner` at its counterfactual address; deployed now unless `deployed: false`
 * (then its signatures carry the factory call, ERC-6492, and it exists only once someone deploys it).
 */
export async function smartWallet(
  h: Harness,
  owner: PrivateKeyAccount,
  options: { deployed?: boolean; role?: ChainRole } = {},
): Promise<SmartWallet> {
  const role = options.role ?? "destination";
  const chain = chainOf(h, role);
  const reader = sandboxPublicClient(chain);
  const { SandboxSmartWalletFactory, SandboxSmartWallet } = await compileSandboxContracts();
  const factory = await factoryOf(h, role);
  const salt = keccak256(toHex(`${owner.address}-${Math.random()}`));
  const address = (await reader.readContract({
    address: factory,
    abi: SandboxSmartWalletFactory.abi,
    functionName: "addressOf",
    args: [owner.address, salt],
  })) as Address;
  const deployCall = encodeFunctionData({
    abi: SandboxSmartWalletFactory.abi,
    functionName: "deploy",
    args: [owner.address, salt],
  });
  const operator = sandboxWalletClient(chain, sandboxOperator);
  const deploy = async () => {
    const hash = await operator.sendTransaction({ to: factory, data: deployCall });
    await reader.waitForTransactionReceipt({ hash });
  };
  if (options.deployed !== false) await deploy();
  const deployedNow = async () => ((await reader.getCode({ address })) ?? "0x") !== "0x";
  return {
    address,
    owner,
    async signMessage(message) {
      const signature = await owner.signMessage({ message });
      if (await deployedNow()) return signature;
      return serializeErc6492Signature({ address: factory, data: deployCall, signature });
    },
    async batch(calls) {
      if (!(await deployedNow())) await deploy();
      const hash = await sandboxWalletClient(chain, owner).writeContract({
        address,
        abi: SandboxSmartWallet.abi,
        functionName: "execute",
        args: [calls],
      });
      const receipt = await reader.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error("the wallet's batch reverted");
      return hash;
    },
  };
}

function chainOf(h: Harness, role: ChainRole) {
  if (!h.network) throw new Error("the harness has no chains");
  return sandboxChainOf(h.network, role);
}
