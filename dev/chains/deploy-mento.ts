import { letRouterRefund } from "./deploy-cctp";
import { deployMentoProtocol, guardCopmFeed, limitMentoPools } from "./deploy-mento-protocol";
import { deployRelayReceiver, letRelayReceiverPayIn } from "./deploy-relay";
import { deploySandboxToken } from "./deploy-token";
import type { ChainDeployer } from "./deployer";
import type { Address, ExchangePair, SandboxChain, SandboxRates, TradingLimitConfig } from "./types";

export interface MentoChainDeployment {
  contracts: Required<
    Pick<
      SandboxChain["contracts"],
      | "usdc"
      | "usdt"
      | "bridgedUsdc"
      | "usdm"
      | "copm"
      | "broker"
      | "exchangeProvider"
      | "relayReceiver"
      | "router"
      | "payoutDepositor"
      | "mentoRouter"
    >
  >;
  exchanges: NonNullable<SandboxChain["exchanges"]>;
}

/**
 * The destination chain, Celo-like: four tokens, Mento's own protocol over them (deploy-mento-protocol.ts:
 * Reserve, BiPoolManager with ConstantSum, BreakerBox, Broker; USDm/COPm, USDm/USDC and USDm/USDT pools
 * with the broker's trading limits), the MentoRouter stand-in that chains broker swaps (USDC -> USDm ->
 * COPm) in one call, and the sandbox's own receivers (the relay receiver of the aggregator stand-in
 * and the payout depositor). Every contract is deployed, in a fixed order, before the one transaction
 * whose presence depends on the options (a pair's trading limit), so the options never move an address.
 */
export async function deployMentoContracts(
  deployer: ChainDeployer,
  rates: SandboxRates,
  limits: Record<ExchangePair, TradingLimitConfig | null>,
): Promise<MentoChainDeployment> {
  const tokens = {
    usdc: await deploySandboxToken(deployer, "usdc"),
    usdt: await deploySandboxToken(deployer, "usdt"),
    usdm: await deploySandboxToken(deployer, "usdm"),
    copm: await deploySandboxToken(deployer, "copm"),
  };
  const relayReceiver = await deployRelayReceiver(deployer, tokens.usdm);
  const payoutDepositor = await deployer.deploy("PayoutDepositor");
  const mento = await deployMentoProtocol(deployer, tokens, rates);
  // The MentoRouter stand-in swaps through the broker, so it needs only the broker's address and no role.
  const mentoRouter = await deployer.deploy("SandboxMentoRouter", [mento.broker]);
  await letRelayReceiverPayIn(deployer, relayReceiver, tokens.usdc);
  // The way back to the intermediate chain (returns): the aggregator's router, refunding in USDm.
  const router = await deployer.deploy("SandboxRouter");
  await letRouterRefund(deployer, router, tokens.usdm);
  // `.83` pays a route in a token Mento does not trade; the way back (router) refunds it. Deployed
  // before the options' transactions (limits), so its address is the same whatever they are.
  const bridgedUsdc = await deploySandboxToken(deployer, "axlusdc");
  await letRelayReceiverPayIn(deployer, relayReceiver, bridgedUsdc);
  await letRouterRefund(deployer, router, bridgedUsdc);
  await limitMentoPools(deployer, mento, limits);
  // Last, so no address deployed above moves: `.80` pays a route in USDT; `.81` trips the breaker.
  await letRelayReceiverPayIn(deployer, relayReceiver, tokens.usdt);
  await guardCopmFeed(deployer, mento);
  return {
    contracts: {
      ...tokens,
      bridgedUsdc,
      broker: mento.broker,
      exchangeProvider: mento.biPoolManager,
      relayReceiver,
      router,
      payoutDepositor,
      mentoRouter,
    },
    exchanges: mento.exchanges.map(({ exchangeId, tokens: pair }) => ({
      exchangeId,
      tokens: pair as [Address, Address],
    })),
  };
}
