import { getContract, parseEther } from "viem";
import type { ChainDeployer } from "./deployer";
import type { Address, SandboxChainKey } from "./types";

/** Gas each local vendor account starts with on every chain: plenty for any run. */
const VENDOR_GAS = parseEther("1000");

const ownableAbi = [
  {
    type: "function",
    name: "transferOwnership",
    stateMutability: "nonpayable",
    inputs: [{ name: "newOwner", type: "address" }],
    outputs: [],
  },
] as const;

/**
 * The local vendors take over what is theirs once every chain is deployed (so no address moves):
 * Circle's forwarder and the aggregator's relayer get gas on every chain, and the aggregator's
 * routers and relay receivers become the relayer's, which pays and refunds routes from its own
 * account (dev/aggregator).
 */
export async function handOverToVendors(input: {
  deployers: Record<SandboxChainKey, ChainDeployer>;
  circleForwarder: Address;
  aggregator: Address;
  owned: { intermediate: Address[]; destination: Address[] };
}): Promise<{ circleForwarder: Address; aggregator: Address }> {
  const { deployers, circleForwarder, aggregator } = input;
  await Promise.all(
    Object.entries(deployers).map(async ([role, deployer]) => {
      for (const vendor of [circleForwarder, aggregator]) {
        await deployer.confirm(
          deployer.walletClient.sendTransaction({ to: vendor, value: VENDOR_GAS }),
          `give ${vendor} gas`,
        );
      }
      for (const owned of input.owned[role as keyof typeof input.owned] ?? []) {
        const contract = getContract({ address: owned, abi: ownableAbi, client: deployer.walletClient });
        await deployer.confirm(
          contract.write.transferOwnership([aggregator]),
          "hand the aggregator its contract",
        );
      }
    }),
  );
  return { circleForwarder, aggregator };
}
