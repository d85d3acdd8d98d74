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
import { CHAIN_ROLES, ROLE_ORDER } from "./roles";
import type {
  ChainRole,
  ExchangePair,
  RunningSandboxChains,
  SandboxChain,
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
 * Starts the three sandbox chains in this process (source, intermediate, destination), each an EDR
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
    const open = (role: ChainRole) =>
      ChainDeployer.open(
        servers.rpcUrls[role],
        { ...CHAIN_ROLES[role], ...options.facts?.[role] },
        compiled,
        options.placements?.[role],
      );
    const [source, intermediate, destination] = await Promise.all([
      open("source"),
      open("intermediate"),
      open("destination"),
    ]);
    const sourceDomain = domainOf("source");
    const intermediateDomain = domainOf("intermediate");
    // Circle's attester, not the operator: the local Circle (dev/circle) signs with its own key.
    const attester = privateKeyToAccount(LOCAL_CIRCLE_ATTESTER_KEY).address;

    // The chains are independent, so they are set up side by side; only the messengers' link waits.
    const [sourceCctp, intermediateSetup, mento] = await Promise.all([
      (async () => {
        const cctp = await deployCctpContracts(source, sourceDomain);
        // Returns mint here: a settlement's USDC goes back to the user's source chain over CCTP.
        const receive = await enableCctpReceive(source, cctp, sourceDomain, attester);
        return { ...cctp, ...receive };
      })(),
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
    await Promise.all([
      linkRemoteMessenger(
        source,
        sourceCctp.tokenMessenger,
        intermediateDomain,
        intermediateSetup.tokenMessenger,
      ),
      linkRemoteMessenger(
        intermediate,
        intermediateSetup.tokenMessenger,
        sourceDomain,
        sourceCctp.tokenMessenger,
      ),
    ]);

    const describeChain = (
      role: ChainRole,
      rest: Pick<SandboxChain, "contracts"> & Partial<SandboxChain>,
    ) => {
      const { chainId, name, cctpDomain } = { ...CHAIN_ROLES[role], ...options.facts?.[role] };
      return {
        role,
        chainId,
        name,
        rpcUrl: servers.rpcUrls[role],
        ...(cctpDomain === undefined ? {} : { cctpDomain }),
        ...rest,
      };
    };
    const vendors = await handOverToVendors({
      deployers: { source, intermediate, destination },
      circleForwarder: privateKeyToAccount(LOCAL_CIRCLE_FORWARDER_KEY).address,
      aggregator: privateKeyToAccount(LOCAL_AGGREGATOR_KEY).address,
      owned: {
        intermediate: [intermediateSetup.router, intermediateSetup.relayReceiver],
        destination: [mento.contracts.relayReceiver, mento.contracts.router],
      },
    });
    const network: SandboxNetwork = {
      operator: { address: sandboxOperator.address, privateKey: SANDBOX_OPERATOR_PRIVATE_KEY },
      vendors: { circleAttester: attester, ...vendors },
      chains: [
        describeChain("source", { contracts: sourceCctp }),
        describeChain("intermediate", { contracts: intermediateSetup }),
        describeChain("destination", { contracts: mento.contracts, exchanges: mento.exchanges }),
      ],
    };
    if (options.intervalMiningMs) {
      await Promise.all(
        ROLE_ORDER.map((role) =>
          createTestClient({ mode: "hardhat", transport: http(servers.rpcUrls[role]) }).request({
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

/** The chain of one role in a running network. */
export function sandboxChainOf(network: SandboxNetwork, role: ChainRole): SandboxChain {
  const chain = network.chains.find((candidate) => candidate.role === role);
  if (!chain) throw new Error(`the sandbox network has no ${role} chain`);
  return chain;
}

function chainIdsOf(options: SandboxChainsOptions): Partial<Record<ChainRole, number>> {
  return Object.fromEntries(
    Object.entries(options.facts ?? {}).map(([role, facts]) => [role, facts?.chainId]),
  ) as Partial<Record<ChainRole, number>>;
}

function domainOf(role: ChainRole): number {
  const domain = CHAIN_ROLES[role].cctpDomain;
  if (domain === undefined) throw new Error(`the ${role} chain has no CCTP domain`);
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
