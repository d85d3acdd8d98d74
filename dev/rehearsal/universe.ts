import { MAINNET_CHAINS } from "../../lib/kernel/chain/profiles";
import type { ChainRole, Placement, SandboxChainsOptions } from "../chains";

/**
 * A local universe shaped as mainnet: three chains with the mainnet chain ids, and every contract the
 * mainnet profile names at its mainnet address, placed as Foundry's `vm.etch` places it (deployed,
 * then its code and constructor's storage put at the address, then set up and initialized there):
 * Circle's messenger and transmitter (the sandbox's, with Circle's receive path), USDC, USDT, USDm,
 * COPm, Mento's own compiled Broker and BiPoolManager (with the USDm/COPm, USDm/USDC and USDm/USDT
 * pools registered by its own createExchange), Mento's router and the payout depositor. What the
 * profile does not name (the oracle, the BreakerBox, the reserve, the aggregator's router) goes
 * wherever the deployer's nonce puts it: the service finds those on chain, as it does on mainnet.
 */
export function mainnetUniverse(): Pick<SandboxChainsOptions, "facts" | "placements" | "intervalMiningMs"> {
  const { source, intermediate, destination } = MAINNET_CHAINS;
  const need = (role: ChainRole, key: keyof (typeof MAINNET_CHAINS)[ChainRole]["contracts"]) => {
    const address = MAINNET_CHAINS[role].contracts[key];
    if (!address) throw new Error(`the mainnet profile names no ${key} on ${MAINNET_CHAINS[role].name}`);
    return address;
  };
  const cctp = (role: "source" | "intermediate"): Placement[] => [
    { contract: "SandboxToken", occurrence: 1, address: need(role, "usdc") },
    { contract: "SandboxTokenMessengerV2", address: need(role, "tokenMessenger") },
    { contract: "SandboxMessageTransmitterV2", address: need(role, "messageTransmitter") },
  ];
  return {
    facts: {
      source: { chainId: source.chainId, name: source.name },
      intermediate: { chainId: intermediate.chainId, name: intermediate.name },
      destination: { chainId: destination.chainId, name: destination.name },
    },
    placements: {
      source: cctp("source"),
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
    // Blocks keep coming, about as Celo's do, so confirmations accrue while nothing is sent.
    intervalMiningMs: 1_000,
  };
}
