import { MAINNET_CHAINS, type ProfileChain } from "../../lib/kernel/chain/profiles";
import type { Placement, SandboxChainKey, SandboxChainsOptions } from "../chains";

/**
 * A local universe shaped as mainnet: four chains with the mainnet chain ids (Arbitrum and Avalanche as sources), and every contract the
 * mainnet profile names at its mainnet address, placed as Foundry's `vm.etch` places it (deployed,
 * then its code and constructor's storage put at the address, then set up and initialized there):
 * Circle's messenger and transmitter (the sandbox's, with Circle's receive path), USDC, USDT, USDm,
 * COPm, Mento's own compiled Broker and BiPoolManager (with the USDm/COPm, USDm/USDC and USDm/USDT
 * pools registered by its own createExchange), Mento's router and the payout depositor. What the
 * profile does not name (the oracle, the BreakerBox, the reserve, the aggregator's router) goes
 * wherever the deployer's nonce puts it: the service finds those on chain, as it does on mainnet.
 */
export function mainnetUniverse(): Pick<
  SandboxChainsOptions,
  "facts" | "placements" | "intervalMiningMs" | "sanctionsOracles"
> {
  const { intermediate, destination } = MAINNET_CHAINS;
  // The default source (Arbitrum) and a Standard-only one (Avalanche), as the sandbox's two sources.
  const source = mainnetSource(42161);
  const sourceB = mainnetSource(43114);
  const chainOf = { source, sourceB, intermediate, destination };
  const need = (key: SandboxChainKey, contract: keyof ProfileChain["contracts"]) => {
    const address = chainOf[key].contracts[contract];
    if (!address) throw new Error(`the mainnet profile names no ${contract} on ${chainOf[key].name}`);
    return address;
  };
  const cctp = (key: "source" | "sourceB" | "intermediate"): Placement[] => [
    { contract: "SandboxToken", occurrence: 1, address: need(key, "usdc") },
    { contract: "SandboxTokenMessengerV2", address: need(key, "tokenMessenger") },
    { contract: "SandboxMessageTransmitterV2", address: need(key, "messageTransmitter") },
  ];
  return {
    facts: {
      source: { chainId: source.chainId, name: source.name },
      sourceB: { chainId: sourceB.chainId, name: sourceB.name },
      intermediate: { chainId: intermediate.chainId, name: intermediate.name },
      destination: { chainId: destination.chainId, name: destination.name },
    },
    placements: {
      source: cctp("source"),
      sourceB: cctp("sourceB"),
      intermediate: cctp("intermediate"),
      // The destination deploys its tokens in this order: USDC, USDT, USDm, COPm (deploy-mento.ts).
      destination: [
        { contract: "SandboxToken", occurrence: 1, address: need("destination", "usdc") },
        { contract: "SandboxToken", occurrence: 2, address: need("destination", "usdt") },
        { contract: "SandboxToken", occurrence: 3, address: need("destination", "usdm") },
        { contract: "SandboxToken", occurrence: 4, address: need("destination", "copm") },
        { contract: "PayoutDepositor", address: need("destination", "payoutDepositor") },
        { contract: "BiPoolManager", address: need("destination", "exchangeProvider") },
        { contract: "Broker", address: need("destination", "broker") },
        { contract: "SandboxMentoRouter", address: need("destination", "mentoRouter") },
      ],
    },
    // The sanctions oracle's stand-in where the profile reads Chainalysis's (Base has its own address).
    sanctionsOracles: {
      source: need("source", "sanctionsOracle"),
      sourceB: need("sourceB", "sanctionsOracle"),
      intermediate: need("intermediate", "sanctionsOracle"),
      destination: need("destination", "sanctionsOracle"),
    },
    // Blocks keep coming, about as Celo's do, so confirmations accrue while nothing is sent.
    intervalMiningMs: 1_000,
  };
}

function mainnetSource(chainId: number): ProfileChain {
  const chain = MAINNET_CHAINS.sources.find((candidate) => candidate.chainId === chainId);
  if (!chain) throw new Error(`the mainnet profile has no source chain ${chainId}`);
  return chain;
}
