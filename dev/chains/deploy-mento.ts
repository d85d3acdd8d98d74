import { getContract } from "viem";
import { sandboxBrokerAbi, sandboxExchangeProviderAbi, sandboxTokenAbi } from "./abis";
import { deployRelayReceiver } from "./deploy-relay";
import { deploySandboxToken } from "./deploy-token";
import type { ChainDeployer } from "./deployer";
import { EXCHANGE_PAIRS, exchangeIdOf, rateOf, SANDBOX_EXCHANGES } from "./exchanges";
import type { Address, ExchangePair, SandboxChain, SandboxRates, TradingLimitConfig } from "./types";

export interface MentoChainDeployment {
  contracts: Required<
    Pick<
      SandboxChain["contracts"],
      | "usdc"
      | "usdt"
      | "usdm"
      | "copm"
      | "broker"
      | "exchangeProvider"
      | "relayReceiver"
      | "payoutDepositor"
      | "mentoRouter"
    >
  >;
  exchanges: NonNullable<SandboxChain["exchanges"]>;
}

/**
 * The destination chain's Mento stand-in: four tokens, an exchange provider pricing USDm against
 * COPm, USDC and USDT, a broker that is a minter of all four and limits each exchange's USDm flow,
 * and a MentoRouter-compatible router that chains broker swaps (USDC -> USDm -> COPm) in one call.
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
  const exchangeProvider = await deployer.deploy("SandboxExchangeProvider");
  const broker = await deployer.deploy("SandboxBroker");
  // Not Mento's, but deployed here, after every earlier contract (whose addresses it must not move)
  // and before the first transaction that depends on the options.
  const relayReceiver = await deployRelayReceiver(deployer, tokens.usdm);
  // Not Mento's either: the payout deposit contract. Last of all, so that no address deployed before
  // it moves, and still before the option-dependent transactions, so that its own address never moves.
  const payoutDepositor = await deployer.deploy("PayoutDepositor");
  // The MentoRouter stand-in swaps through the broker, so it needs only the broker's address and no
  // role (it never mints). Deployed after the payout depositor so that no earlier address moves, and
  // before the option-dependent transactions so that its own never does.
  const mentoRouter = await deployer.deploy("SandboxMentoRouter", [broker]);
  // Every contract exists before the first transaction that depends on the options (rates, limits),
  // so the options never move an address.

  const client = deployer.walletClient;
  const provider = getContract({ address: exchangeProvider, abi: sandboxExchangeProviderAbi, client });
  const brokerContract = getContract({ address: broker, abi: sandboxBrokerAbi, client });

  await deployer.confirm(provider.write.setBroker([broker]), "let the broker swap");
  await deployer.confirm(
    brokerContract.write.addExchangeProvider([exchangeProvider]),
    "register the provider",
  );
  for (const token of Object.values(tokens)) {
    const contract = getContract({ address: token, abi: sandboxTokenAbi, client });
    await deployer.confirm(contract.write.setMinter([broker, true]), "make the broker a minter");
  }

  for (const pair of EXCHANGE_PAIRS) {
    const { asset0, asset1 } = SANDBOX_EXCHANGES[pair];
    await deployer.confirm(
      provider.write.createExchange([tokens[asset0], tokens[asset1], rateOf(pair, rates), rates.spread]),
      `create ${pair}`,
    );
    const limit = limits[pair];
    if (limit) {
      await deployer.confirm(
        brokerContract.write.configureTradingLimit([exchangeIdOf(pair), tokens[asset0], limit]),
        `limit ${pair}`,
      );
    }
  }

  const listed = await deployer.publicClient.readContract({
    address: exchangeProvider,
    abi: sandboxExchangeProviderAbi,
    functionName: "getExchanges",
  });
  const exchanges = listed.map(({ exchangeId, assets }) => {
    const [asset0, asset1] = assets;
    if (!asset0 || !asset1) throw new Error(`exchange ${exchangeId} lists ${assets.length} assets`);
    return { exchangeId, tokens: [asset0, asset1] as [Address, Address] };
  });
  for (const pair of EXCHANGE_PAIRS) {
    if (!exchanges.some(({ exchangeId }) => exchangeId === exchangeIdOf(pair))) {
      throw new Error(`the provider's id for ${pair} is not keccak256 of the two symbols`);
    }
  }
  return {
    contracts: { ...tokens, exchangeProvider, broker, relayReceiver, payoutDepositor, mentoRouter },
    exchanges,
  };
}
