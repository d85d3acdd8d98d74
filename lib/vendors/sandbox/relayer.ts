import { type Account, getAbiItem, type Hex, parseEventLogs } from "viem";
import { chainUnavailable } from "../../kernel/chain/failure";
import { type LegChain, requiredContract } from "../../kernel/chain/leg-chain";
import { delayElapsed, receiptOrUndefined } from "../../kernel/chain/receipt";
import type { Clock } from "../../kernel/clock";
import { withinDeadline } from "../../kernel/deadline";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import { operatorWallet, sendUnlessDone } from "../../sandbox/operator";
import type { RouteExecutor, RouteStatus } from "../../settlement/leg-ports";
import { sandboxRelayReceiverAbi, sandboxRouteRequestAbi } from "./leg-abis";
import { SANDBOX_ROUTE_COST_BPS, sandboxRouteAmountOut } from "./route";

const PROVIDER = "sandbox-relayer";

export interface SandboxRelayerOptions {
  /** Where the settlement account calls the SandboxRouter, which burns USDC and emits RouteRequested. */
  intermediate: LegChain;
  /** Where the SandboxRelayReceiver pays the route out in USDm. */
  destination: LegChain;
  /** The sandbox operator, owner of the relay receiver. */
  operator: Account;
  /** How long after the route transaction's block the relayer pays, by `clock`. */
  relayDelayMs: number;
  clock: Clock;
  /** What the relayer keeps, in basis points; the sandbox route quotes the same (default 10). */
  costBps?: number;
  timeoutMs?: number;
}

/**
 * The aggregator for the sandbox chains, answering like LI.FI's status. A route transaction is
 * pending until it is mined and `relayDelayMs` after its block's timestamp has passed by the
 * injected clock; then the operator pays it on the destination with the relay receiver's `fulfil`:
 * the USDC amount rescaled to USDm less `costBps`, the figure the sandbox route quoted. The receiver
 * refuses a second payment of the same route, so asking again only reports the payment made.
 */
export function sandboxRelayer(options: SandboxRelayerOptions): RouteExecutor {
  const { intermediate, destination, clock } = options;
  const router = requiredContract(intermediate, "router").toLowerCase();
  const usdc = requiredContract(intermediate, "usdc").toLowerCase();
  const usdm = requiredContract(destination, "usdm");
  const relayReceiver = requiredContract(destination, "relayReceiver");
  const costBps = options.costBps ?? SANDBOX_ROUTE_COST_BPS;
  // A bad figure is refused when the adapter is made, not at the first status.
  sandboxRouteAmountOut(1n, costBps);
  const wallet = operatorWallet(destination, options.operator);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  async function paymentOf(routeId: Hex): Promise<RouteStatus | undefined> {
    const [paid] = await destination.client.getLogs({
      address: relayReceiver,
      event: getAbiItem({ abi: sandboxRelayReceiverAbi, name: "RouteFulfilled" }),
      args: { routeId },
      fromBlock: 0n,
    });
    if (!paid?.transactionHash || paid.args.amountOut === undefined) return undefined;
    return {
      status: "done",
      substatus: "COMPLETED",
      receivedAmount: paid.args.amountOut,
      receivedToken: usdm,
      receivingTxHash: paid.transactionHash,
    };
  }

  async function relay(txHash: Hex): Promise<RouteStatus> {
    const receipt = await receiptOrUndefined(intermediate.client, txHash);
    if (!receipt) return { status: "pending", substatus: "NOT_FOUND" };
    const request = parseEventLogs({
      abi: sandboxRouteRequestAbi,
      eventName: "RouteRequested",
      logs: receipt.logs,
    }).find((log) => log.address.toLowerCase() === router);
    // As LI.FI's INVALID: the hash requested no route of this tool (or reverted, requesting nothing).
    if (receipt.status !== "success" || !request) return { status: "failed", substatus: "INVALID" };
    const { routeId, tokenIn, amountIn, destinationChainId, tokenOut, recipient, minAmountOut } =
      request.args;
    const carried =
      tokenIn.toLowerCase() === usdc &&
      tokenOut.toLowerCase() === usdm.toLowerCase() &&
      destinationChainId === BigInt(destination.chainId);
    if (!carried) return { status: "failed", substatus: "INVALID" };

    const paid = await paymentOf(routeId);
    if (paid) return paid;
    if (!(await delayElapsed(intermediate.client, receipt.blockNumber, options.relayDelayMs, clock.now()))) {
      return { status: "pending", substatus: "WAIT_DESTINATION_TRANSACTION" };
    }
    const amountOut = sandboxRouteAmountOut(amountIn, costBps);
    // The USDC is burned either way; a real bridge would refund it, the sandbox only reports it.
    if (amountOut < minAmountOut) return { status: "failed", substatus: "SLIPPAGE_EXCEEDED" };

    await sendUnlessDone({
      provider: PROVIDER,
      what: `pay route ${routeId}`,
      chain: destination,
      wallet,
      done: () =>
        destination.client.readContract({
          address: relayReceiver,
          abi: sandboxRelayReceiverAbi,
          functionName: "fulfilled",
          args: [routeId],
        }),
      send: (operator) =>
        operator.writeContract({
          address: relayReceiver,
          abi: sandboxRelayReceiverAbi,
          functionName: "fulfil",
          args: [routeId, recipient, amountOut],
        }),
    });
    return (await paymentOf(routeId)) ?? { status: "pending", substatus: "WAIT_DESTINATION_TRANSACTION" };
  }

  return {
    async status({ txHash, fromChainId, toChainId }) {
      if (fromChainId !== intermediate.chainId || toChainId !== destination.chainId) {
        throw new RangeError(
          `the sandbox relayer carries chain ${intermediate.chainId} to ${destination.chainId}, not ${fromChainId} to ${toChainId}`,
        );
      }
      try {
        return await withinDeadline(PROVIDER, timeoutMs, () => relay(txHash));
      } catch (error) {
        throw chainUnavailable(PROVIDER, error);
      }
    },
  };
}
