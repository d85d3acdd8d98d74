import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PrivateKeyAccount,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";

import {
  erc20Abi,
  FINALITY_STANDARD,
  mentoBrokerAbi,
  tokenMessengerV2Abi,
} from "../../lib/kernel/chain/abis";
import { addressToBytes32, FORWARDING_HOOK_DATA } from "../../lib/kernel/chain/forwarding";
import { viemChainOf } from "../../lib/kernel/chain/viem-chain";

/** A chain as the sandbox discovery endpoint describes it. */
export interface DiscoveredChain {
  role: "source" | "intermediate" | "destination";
  chainId: number;
  name: string;
  rpcUrl: string;
  cctpDomain?: number;
  contracts: Record<string, Hex | undefined>;
  exchanges?: Array<{ exchangeId: string; tokens: [string, string] }>;
}

function clientsFor(chain: DiscoveredChain, account: PrivateKeyAccount) {
  const transport = http(chain.rpcUrl);
  return {
    public: createPublicClient({ chain: viemChainOf(chain), transport }),
    wallet: createWalletClient({ account, chain: viemChainOf(chain), transport }),
  };
}

function need(value: Hex | undefined, what: string): Hex {
  if (!value) throw new Error(`the sandbox network has no ${what}`);
  return value;
}

async function confirmed(
  client: ReturnType<typeof clientsFor>["public"],
  hash: Hex,
): Promise<TransactionReceipt> {
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

/**
 * What a user's wallet does to send USDC with CCTP v2 and the Forwarding Service: approve the
 * TokenMessengerV2, then depositForBurnWithHook. Returns the DepositForBurn event as read back.
 */
export async function burnWithForwarding(input: {
  source: DiscoveredChain;
  destinationDomain: number;
  user: PrivateKeyAccount;
  amount: bigint;
  maxFee: bigint;
  mintRecipient: Hex;
}) {
  const { public: reader, wallet } = clientsFor(input.source, input.user);
  const usdc = need(input.source.contracts.usdc, "source USDC");
  const messenger = need(input.source.contracts.tokenMessenger, "TokenMessengerV2");
  await confirmed(
    reader,
    await wallet.writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: "approve",
      args: [messenger, input.amount],
    }),
  );
  const receipt = await confirmed(
    reader,
    await wallet.writeContract({
      address: messenger,
      abi: tokenMessengerV2Abi,
      functionName: "depositForBurnWithHook",
      args: [
        input.amount,
        input.destinationDomain,
        addressToBytes32(input.mintRecipient),
        usdc,
        addressToBytes32("0x0000000000000000000000000000000000000000"),
        input.maxFee,
        FINALITY_STANDARD,
        FORWARDING_HOOK_DATA,
      ],
    }),
  );
  const [burn] = parseEventLogs({
    abi: tokenMessengerV2Abi,
    eventName: "DepositForBurn",
    logs: receipt.logs,
  });
  if (!burn) throw new Error("no DepositForBurn event in the burn receipt");
  return { receipt, event: burn.args };
}

/** Swap on the sandbox Mento broker: approve, swapIn; returns the Transfer logs of the swap. */
export async function swapOnBroker(input: {
  destination: DiscoveredChain;
  trader: PrivateKeyAccount;
  tokenIn: Hex;
  tokenOut: Hex;
  amountIn: bigint;
  slippageBps: bigint;
}) {
  const { public: reader, wallet } = clientsFor(input.destination, input.trader);
  const broker = need(input.destination.contracts.broker, "broker");
  const provider = need(input.destination.contracts.exchangeProvider, "exchange provider");
  const pair = [input.tokenIn.toLowerCase(), input.tokenOut.toLowerCase()].sort().join();
  const exchange = input.destination.exchanges?.find(
    (candidate) =>
      candidate.tokens
        .map((t) => t.toLowerCase())
        .sort()
        .join() === pair,
  );
  if (!exchange) throw new Error("the broker has no exchange for this pair");
  const exchangeId = exchange.exchangeId as Hex;
  const expected = await reader.readContract({
    address: broker,
    abi: mentoBrokerAbi,
    functionName: "getAmountOut",
    args: [provider, exchangeId, input.tokenIn, input.tokenOut, input.amountIn],
  });
  const amountOutMin = (expected * (10_000n - input.slippageBps)) / 10_000n;
  await confirmed(
    reader,
    await wallet.writeContract({
      address: input.tokenIn,
      abi: erc20Abi,
      functionName: "approve",
      args: [broker, input.amountIn],
    }),
  );
  const receipt = await confirmed(
    reader,
    await wallet.writeContract({
      address: broker,
      abi: mentoBrokerAbi,
      functionName: "swapIn",
      args: [provider, exchangeId, input.tokenIn, input.tokenOut, input.amountIn, amountOutMin],
    }),
  );
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
  return { receipt, expected, amountOutMin, transfers };
}
