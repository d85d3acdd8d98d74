// Runs one CCTP burn and one Mento swap on freshly started sandbox chains and prints what happened:
//   npx tsx dev/chains/smoke.ts
import { erc20Abi, formatUnits, getContract, pad, parseEventLogs, parseUnits, zeroHash } from "viem";
import { FORWARDING_HOOK_DATA as CCTP_FORWARD_HOOK_DATA } from "../../lib/chain/forwarding";
import { sandboxBrokerAbi, sandboxTokenMessengerV2Abi } from "./abis";
import { sandboxPublicClient, sandboxWalletClient } from "./clients";
import { exchangeIdOf } from "./exchanges";
import { fundFreshWallet } from "./fund";
import { sandboxChainOf, startSandboxChains } from "./index";
import type { Address, SandboxChain } from "./types";

const FAST_FINALITY = 1000;

function required(value: Address | undefined, what: string): Address {
  if (!value) throw new Error(`the sandbox has no ${what}`);
  return value;
}

async function burnOnSource(source: SandboxChain, intermediate: SandboxChain): Promise<void> {
  const usdc = required(source.contracts.usdc, "source USDC");
  const messenger = required(source.contracts.tokenMessenger, "source TokenMessengerV2");
  const amount = parseUnits("250", 6);
  const maxFee = parseUnits("0.25", 6);
  const destinationDomain = intermediate.cctpDomain;
  if (destinationDomain === undefined) throw new Error("the intermediate chain has no CCTP domain");
  const user = await fundFreshWallet(source, [{ token: usdc, amount }]);
  const publicClient = sandboxPublicClient(source);
  const wallet = sandboxWalletClient(source, user);
  const supplyBefore = await publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: "totalSupply",
  });

  await publicClient.waitForTransactionReceipt({
    hash: await getContract({ address: usdc, abi: erc20Abi, client: wallet }).write.approve([
      messenger,
      amount,
    ]),
  });
  const hash = await getContract({
    address: messenger,
    abi: sandboxTokenMessengerV2Abi,
    client: wallet,
  }).write.depositForBurnWithHook([
    amount,
    destinationDomain,
    pad(user.address, { size: 32 }),
    usdc,
    zeroHash,
    maxFee,
    FAST_FINALITY,
    CCTP_FORWARD_HOOK_DATA,
  ]);
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  const [event] = parseEventLogs({
    abi: sandboxTokenMessengerV2Abi,
    logs: receipt.logs,
    eventName: "DepositForBurn",
  });
  if (!event) throw new Error("no DepositForBurn in the receipt");
  const supplyAfter = await publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: "totalSupply",
  });

  console.log(
    `source (chain ${source.chainId}, domain ${source.cctpDomain}): depositForBurnWithHook ${hash}`,
  );
  console.log(`  block ${receipt.blockNumber}, gas ${receipt.gasUsed}, status ${receipt.status}`);
  console.log(`  DepositForBurn burnToken=${event.args.burnToken} depositor=${event.args.depositor}`);
  console.log(
    `    amount=${formatUnits(event.args.amount, 6)} USDC maxFee=${formatUnits(event.args.maxFee, 6)} USDC`,
  );
  console.log(
    `    destinationDomain=${event.args.destinationDomain} minFinalityThreshold=${event.args.minFinalityThreshold}`,
  );
  console.log(`    destinationTokenMessenger=${event.args.destinationTokenMessenger}`);
  console.log(`    mintRecipient=${event.args.mintRecipient}`);
  console.log(`    hookData=${event.args.hookData}`);
  console.log(`  USDC supply ${formatUnits(supplyBefore, 6)} -> ${formatUnits(supplyAfter, 6)}`);
}

async function swapOnDestination(destination: SandboxChain): Promise<void> {
  const usdm = required(destination.contracts.usdm, "USDm");
  const copm = required(destination.contracts.copm, "COPm");
  const broker = required(destination.contracts.broker, "broker");
  const exchangeProvider = required(destination.contracts.exchangeProvider, "exchange provider");
  const exchangeId = exchangeIdOf("USDm/COPm");
  const amountIn = parseUnits("100", 18);
  const user = await fundFreshWallet(destination, [{ token: usdm, amount: amountIn }]);
  const publicClient = sandboxPublicClient(destination);
  const wallet = sandboxWalletClient(destination, user);

  const quote = await publicClient.readContract({
    address: broker,
    abi: sandboxBrokerAbi,
    functionName: "getAmountOut",
    args: [exchangeProvider, exchangeId, usdm, copm, amountIn],
  });
  await publicClient.waitForTransactionReceipt({
    hash: await getContract({ address: usdm, abi: erc20Abi, client: wallet }).write.approve([
      broker,
      amountIn,
    ]),
  });
  const hash = await getContract({ address: broker, abi: sandboxBrokerAbi, client: wallet }).write.swapIn([
    exchangeProvider,
    exchangeId,
    usdm,
    copm,
    amountIn,
    quote,
  ]);
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
  const balance = await publicClient.readContract({
    address: copm,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [user.address],
  });

  console.log(`destination (chain ${destination.chainId}): swapIn USDm->COPm ${hash}`);
  console.log(`  quote for ${formatUnits(amountIn, 18)} USDm: ${formatUnits(quote, 18)} COPm`);
  for (const transfer of transfers) {
    const token = transfer.address.toLowerCase() === usdm.toLowerCase() ? "USDm" : "COPm";
    console.log(
      `  Transfer ${formatUnits(transfer.args.value, 18)} ${token} ${transfer.args.from} -> ${transfer.args.to}`,
    );
  }
  console.log(`  wallet ${user.address} now holds ${formatUnits(balance, 18)} COPm`);
}

const startedAt = performance.now();
const chains = await startSandboxChains();
console.log(`three chains started and deployed in ${Math.round(performance.now() - startedAt)} ms`);
try {
  const { network } = chains;
  await burnOnSource(sandboxChainOf(network, "source"), sandboxChainOf(network, "intermediate"));
  await swapOnDestination(sandboxChainOf(network, "destination"));
} finally {
  await chains.close();
}
