import { createTestClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compileSandboxContracts } from "./compile";
import { deployCctpContracts, enableCctpReceive, letRouterRefund, linkRemoteMessenger } from "./deploy-cctp";
import { deployMentoContracts } from "./deploy-mento";
import { deployRelayReceiver } from "./deploy-relay";
import { ChainDeployer } from "./deployer";
import { DEFAULT_RATES, DEFAULT_TRADING_LIMIT, EXCHANGE_PAIRS } from "./exchanges";
import { startSandboxRpcServers } from "./json-rpc-servers";
import {
  LOCAL_AGGREGATOR_KEY,
  LOCAL_CIRCLE_ATTESTER_KEY,
  LOCAL_CIRCLE_FORWARDER_KEY,
  SANDBOX_OPERATOR_PRIVATE_KEY,
  sandboxOperator,
} from "./operator";
import { CHAIN_KEYS, CHAIN_ROLES } from "./roles";
import { placeSanctionsOracle, sanctionsOracleOf } from "./sanctions";
import type {
  Address,
  ExchangePair,
  RunningSandboxChains,
  SandboxChain,
  SandboxChainKey,
  SandboxChainsOptions,
  SandboxNetwork,
  SandboxRates,
  TradingLimitConfig,
} from "./types";
import { handOverToVendors } from "./vendors";

export { FORWARDING_HOOK_DATA as CCTP_FORWARD_HOOK_DATA } from "../../lib/kernel/chain/forwarding";
export * from "./abis";
export { sandboxPublicClient, sandboxWalletClient } from "./clients";
export { compileSandboxContracts } from "./compile";
export {
  DEFAULT_RATES,
  DEFAULT_TRADING_LIMIT,
  exchangeIdOf,
  tradingLimitIdOf,
  WAD,
} from "./exchanges";
export { fundFreshWallet } from "./fund";
export { repriceMentoPool } from "./mento-levers";
export {
  LOCAL_AGGREGATOR_KEY,
  LOCAL_CIRCLE_ATTESTER_KEY,
  LOCAL_CIRCLE_FORWARDER_KEY,
  sandboxOperator,
} from "./operator";
export { revertReason } from "./revert-reason";

export type * from "./types";
export { sandboxViemChain } from "./viem-chain";

/**
 * Starts the sandbox chains in this process (two sources, intermediate, destination), each an EDR
 * network behind its own loopback JSON-RPC server with automine on, and deploys and configures the
 * sandbox contracts on them with the operator account. The same options give the same addresses.
 * With `options.clock`, every block is stamped with that clock's time, so a service on the same
 * clock sees chain time and its own agree; without it, the chains keep wall time.
 */
export async function startSandboxChains(options: SandboxChainsOptions = {}): Promise<RunningSandboxChains> {
  const host = options.host ?? "127.0.0.1";
  const [compiled, servers] = await Promise.all([
    compileSandboxContracts(),
    startSandboxRpcServers(host, options.ports ?? {}, options.clock, chainIdsOf(options)),
  ]);

  try {
    const open = (key: SandboxChainKey) =>
      ChainDeployer.open(
        servers.rpcUrls[key],
        { ...CHAIN_ROLES[key], ...options.facts?.[key] },
        compiled,
        options.placements?.[key],
      );
    const [source, sourceB, intermediate, destination] = await Promise.all([
      open("source"),
      open("sourceB"),
      open("intermediate"),
      open("destination"),
    ]);
    const intermediateDomain = domainOf("intermediate");
    // Circle's attester, not the operator: the local Circle (dev/circle) signs with its own key.
    const attester = privateKeyToAccount(LOCAL_CIRCLE_ATTESTER_KEY).address;
    // Returns mint on a source chain: a settlement's USDC goes back to the user's source chain over CCTP.
    const sourceChain = async (deployer: ChainDeployer, key: "source" | "sourceB") => {
      const cctp = await deployCctpContracts(deployer, domainOf(key));
      const receive = await enableCctpReceive(deployer, cctp, domainOf(key), attester);
      return { ...cctp, ...receive };
    };

    // The chains are independent, so they are set up side by side; only the messengers' link waits.
    const [sourceCctp, sourceBCctp, intermediateSetup, mento] = await Promise.all([
      sourceChain(source, "source"),
      sourceChain(sourceB, "sourceB"),
      (async () => {
        const cctp = await deployCctpContracts(intermediate, intermediateDomain);
        const router = await intermediate.deploy("SandboxRouter");
        // After the last deployment, so the receive side's set-up moves no address.
        const receive = await enableCctpReceive(intermediate, cctp, intermediateDomain, attester);
        await letRouterRefund(intermediate, router, cctp.usdc);
        // The way back from the destination chain (returns): routes paid out here in USDC.
        const relayReceiver = await deployRelayReceiver(intermediate, cctp.usdc);
        return { ...cctp, router, ...receive, relayReceiver };
      })(),
      deployMentoContracts(destination, resolveRates(options.rate), resolveLimits(options.limits)),
    ]);
    // Each source and the intermediate chain know each other's messenger; the two sources do not.
    const links = [
      { deployer: source, key: "source", messenger: sourceCctp.tokenMessenger },
      { deployer: sourceB, key: "sourceB", messenger: sourceBCctp.tokenMessenger },
    ] as const;
    await Promise.all([
      ...links.map((end) =>
        linkRemoteMessenger(
          end.deployer,
          end.messenger,
          intermediateDomain,
          intermediateSetup.tokenMessenger,
        ),
      ),
      (async () => {
        for (const end of links) {
          await linkRemoteMessenger(
            intermediate,
            intermediateSetup.tokenMessenger,
            domainOf(end.key),
            end.messenger,
          );
        }
      })(),
    ]);

    const describeChain = (
      key: SandboxChainKey,
      rest: Pick<SandboxChain, "contracts"> & Partial<SandboxChain>,
    ): SandboxChain => {
      const facts = { ...CHAIN_ROLES[key], ...options.facts?.[key] };
      return {
        key,
        role: facts.role,
        chainId: facts.chainId,
        name: facts.name,
        rpcUrl: servers.rpcUrls[key],
        ...(facts.cctpDomain === undefined ? {} : { cctpDomain: facts.cctpDomain }),
        ...(facts.attestation ? { attestation: facts.attestation } : {}),
        ...rest,
      };
    };
    const vendors = await handOverToVendors({
      deployers: { source, sourceB, intermediate, destination },
      circleForwarder: privateKeyToAccount(LOCAL_CIRCLE_FORWARDER_KEY).address,
      aggregator: privateKeyToAccount(LOCAL_AGGREGATOR_KEY).address,
      owned: {
        intermediate: [intermediateSetup.router, intermediateSetup.relayReceiver],
        destination: [mento.contracts.relayReceiver, mento.contracts.router],
      },
    });
    const oracles = Object.fromEntries(
      await Promise.all(
        CHAIN_KEYS.map(async (key) => [
          key,
          await placeSanctionsOracle(servers.rpcUrls[key], compiled, sanctionsOracleOf(options, key)),
        ]),
      ),
    ) as Record<SandboxChainKey, Address>;
    const network: SandboxNetwork = {
      operator: { address: sandboxOperator.address, privateKey: SANDBOX_OPERATOR_PRIVATE_KEY },
      vendors: { circleAttester: attester, ...vendors },
      chains: [
        describeChain("source", { contracts: { ...sourceCctp, sanctionsOracle: oracles.source } }),
        describeChain("sourceB", { contracts: { ...sourceBCctp, sanctionsOracle: oracles.sourceB } }),
        describeChain("intermediate", {
          contracts: { ...intermediateSetup, sanctionsOracle: oracles.intermediate },
        }),
        describeChain("destination", {
          contracts: { ...mento.contracts, sanctionsOracle: oracles.destination },
          exchanges: mento.exchanges,
        }),
      ],
    };
    if (options.intervalMiningMs) {
      await Promise.all(
        CHAIN_KEYS.map((key) =>
          createTestClient({ mode: "hardhat", transport: http(servers.rpcUrls[key]) }).request({
            method: "evm_setIntervalMining",
            params: [options.intervalMiningMs],
          } as never),
        ),
      );
    }
    return { network, close: servers.close };
  } catch (error) {
    await servers.close();
    throw error;
  }
}

/** One chain of a running network by its key (`source` is the default source chain). */
export function sandboxChainOf(network: SandboxNetwork, key: SandboxChainKey): SandboxChain {
  const chain = network.chains.find((candidate) => candidate.key === key);
  if (!chain) throw new Error(`the sandbox network has no ${key} chain`);
  return chain;
}

function chainIdsOf(options: SandboxChainsOptions): Partial<Record<SandboxChainKey, number>> {
  return Object.fromEntries(
    Object.entries(options.facts ?? {}).map(([key, facts]) => [key, facts?.chainId]),
  ) as Partial<Record<SandboxChainKey, number>>;
}

function domainOf(key: SandboxChainKey): number {
  const domain = CHAIN_ROLES[key].cctpDomain;
  if (domain === undefined) throw new Error(`the ${key} chain has no CCTP domain`);
  return domain;
}

function resolveRates(rate: Partial<SandboxRates> | undefined): SandboxRates {
  return {
    copmPerUsdm: rate?.copmPerUsdm ?? DEFAULT_RATES.copmPerUsdm,
    spread: rate?.spread ?? DEFAULT_RATES.spread,
  };
}

function resolveLimits(
  limits: Partial<Record<ExchangePair, TradingLimitConfig | null>> | undefined,
): Record<ExchangePair, TradingLimitConfig | null> {
  return Object.fromEntries(
    EXCHANGE_PAIRS.map((pair) => [pair, limits?.[pair] === undefined ? DEFAULT_TRADING_LIMIT : limits[pair]]),
  ) as Record<ExchangePair, TradingLimitConfig | null>;
}
