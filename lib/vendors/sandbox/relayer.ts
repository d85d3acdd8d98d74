import { type Account, concatHex, getAbiItem, type Hex, parseEventLogs, zeroHash } from "viem";
import { BPS_PER_UNIT } from "../../kernel/basis-points";
import { tokenMessengerV2Abi } from "../../kernel/chain/abis";
import { chainUnavailable } from "../../kernel/chain/failure";
import { FORWARDING_HOOK_DATA } from "../../kernel/chain/forwarding";
import { type LegChain, requiredContract } from "../../kernel/chain/leg-chain";
import { delayElapsed, receiptOrUndefined } from "../../kernel/chain/receipt";
import type { Clock } from "../../kernel/clock";
import { withinDeadline } from "../../kernel/deadline";
import { mulDivDown } from "../../kernel/money";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../kernel/provider-failure";
import { operatorWallet, sendUnlessDone } from "../../sandbox/operator";
import type { RouteExecutor, RouteStatus } from "../../settlement/leg-ports";
import { sandboxRelayReceiverAbi, sandboxRouteRequestAbi } from "./leg-abis";
import { principalOfBurn, type SandboxOutcome, sandboxOutcomeOf } from "./magic-amounts";
import { exhaustMentoLimit } from "./mento-market";
import { moveMentoRate } from "./mento-rate";
import { type RouteDecimals, SANDBOX_ROUTE_COST_BPS, sandboxRouteAmountOut } from "./route";

const PROVIDER = "sandbox-relayer";

export interface SandboxRelayerOptions {
  /**
   * Where the settlement account calls the SandboxRouter (which burns USDC and emits
   * RouteRequested), and where a return's way back is paid out in USDC by a SandboxRelayReceiver.
   */
  intermediate: LegChain;
  /**
   * Where the SandboxRelayReceiver pays the route out in USDm, and where a return's way back leaves
   * through a SandboxRouter (USDm in), when the chain has one.
   */
  destination: LegChain;
  /**
   * Mock mode only: the chain whose burns carry the test amounts. A route's memo is its order's
   * commitment, which the order's burn carries too; the burn's cents choose the route's outcome.
   */
  testAmountsFrom?: LegChain;
  /** How long `.76` keeps Mento's trading limit exhausted and `.77` its rate moved (mento-market.ts). */
  slowLegMs?: number;
  /** The sandbox operator, owner of the routers and the relay receivers. */
  operator: Account;
  /** How long after the route transaction's block the relayer pays, by `clock`. */
  relayDelayMs: number;
  clock: Clock;
  /** What the relayer keeps, in basis points; the sandbox route quotes the same (default 10). */
  costBps?: number;
  timeoutMs?: number;
}

/** One direction the relayer carries: a router's input on one chain, paid out on the other. */
interface Carriage {
  from: LegChain;
  to: LegChain;
  router: Hex;
  receiver: Hex;
  tokenIn: Hex;
  tokenOut: Hex;
  decimals: RouteDecimals;
  /** Whether the order's test amount chooses the outcome: the settlement's way out only. */
  testAmounts: boolean;
}

/**
 * The aggregator for the sandbox chains, answering like LI.FI's status, both ways: USDC on the
 * intermediate chain to USDm on the destination chain (a settlement's route), and USDm back to USDC
 * (a return from the destination chain). A route transaction is pending until it is mined and
 * `relayDelayMs` after its block's timestamp has passed by the injected clock; then the operator pays
 * it on the other chain with the relay receiver's `fulfil`: the amount rescaled to the output token
 * less `costBps`, the figure the sandbox route quoted. A route that would pay less than its minimum
 * is refunded on the chain it left instead (the router's `refund`), as a bridge gives up. The
 * receivers and the routers refuse a second payment or refund of the same route, so asking again
 * only reports what was done. In mock mode the order's test amount chooses the way out's outcome
 * (magic-amounts.ts): `.74` its first route is refunded, `.75` it is paid in USDC instead of USDm
 * (PARTIAL), `.76` it is paid and Mento's USDm/COPm trading limit is exhausted for `slowLegMs`, `.77`
 * it is paid and Mento's USDm/COPm rate moves against it for `slowLegMs` (mento-market.ts), as if the
 * market moved just before the order's exchange.
 */
export function sandboxRelayer(options: SandboxRelayerOptions): RouteExecutor {
  const { intermediate, destination, clock } = options;
  const usdm = requiredContract(destination, "usdm");
  const usdc = requiredContract(intermediate, "usdc");
  const destinationUsdc = requiredContract(destination, "usdc");
  const out: Carriage = {
    from: intermediate,
    to: destination,
    router: requiredContract(intermediate, "router"),
    receiver: requiredContract(destination, "relayReceiver"),
    tokenIn: usdc,
    tokenOut: usdm,
    decimals: { from: 6, to: 18 },
    testAmounts: true,
  };
  const { router: backRouter } = destination.contracts;
  const { relayReceiver: backReceiver } = intermediate.contracts;
  const back: Carriage | undefined =
    backRouter && backReceiver
      ? {
          from: destination,
          to: intermediate,
          router: backRouter,
          receiver: backReceiver,
          tokenIn: usdm,
          tokenOut: usdc,
          decimals: { from: 18, to: 6 },
          testAmounts: false,
        }
      : undefined;
  const costBps = options.costBps ?? SANDBOX_ROUTE_COST_BPS;
  // A bad figure is refused when the adapter is made, not at the first status.
  sandboxRouteAmountOut(1n, costBps);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;

  async function paymentOf(carriage: Carriage, routeId: Hex): Promise<RouteStatus | undefined> {
    const [paid] = await carriage.to.client.getLogs({
      address: carriage.receiver,
      event: getAbiItem({ abi: sandboxRelayReceiverAbi, name: "RouteFulfilled" }),
      args: { routeId },
      fromBlock: 0n,
    });
    if (paid?.transactionHash && paid.args.amountOut !== undefined) {
      return {
        status: "done",
        substatus: "COMPLETED",
        receivedAmount: paid.args.amountOut,
        receivedToken: carriage.tokenOut,
        receivingTxHash: paid.transactionHash,
      };
    }
    const [other] = await carriage.to.client.getLogs({
      address: carriage.receiver,
      event: getAbiItem({ abi: sandboxRelayReceiverAbi, name: "RouteFulfilledWith" }),
      args: { routeId },
      fromBlock: 0n,
    });
    if (!other?.transactionHash || other.args.amountOut === undefined || !other.args.tokenOut)
      return undefined;
    return {
      status: "partial",
      substatus: "PARTIAL",
      receivedAmount: other.args.amountOut,
      receivedToken: other.args.tokenOut,
      receivingTxHash: other.transactionHash,
    };
  }

  async function refundOf(carriage: Carriage, routeId: Hex): Promise<RouteStatus | undefined> {
    const [refund] = await carriage.from.client.getLogs({
      address: carriage.router,
      event: getAbiItem({ abi: sandboxRouteRequestAbi, name: "RouteRefunded" }),
      args: { routeId },
      fromBlock: 0n,
    });
    if (!refund?.transactionHash || refund.args.amount === undefined || !refund.args.tokenIn)
      return undefined;
    return {
      status: "refunded",
      substatus: "REFUNDED",
      receivedAmount: refund.args.amount,
      receivedToken: refund.args.tokenIn,
      receivingTxHash: refund.transactionHash,
    };
  }

  /** The test amount of the order whose commitment the route carries; a route refunded before makes the next normal. */
  async function outcomeOf(carriage: Carriage, routeId: Hex, memo: Hex): Promise<SandboxOutcome> {
    const from = options.testAmountsFrom;
    if (!from || !carriage.testAmounts || memo === zeroHash) return "normal";
    const hookData = concatHex([FORWARDING_HOOK_DATA, memo]).toLowerCase();
    const burns = await from.client.getLogs({
      address: requiredContract(from, "tokenMessenger"),
      event: getAbiItem({ abi: tokenMessengerV2Abi, name: "DepositForBurn" }),
      fromBlock: 0n,
    });
    const burn = burns.find((log) => log.args.hookData?.toLowerCase() === hookData);
    if (!burn?.args.amount || burn.args.maxFee === undefined) return "normal";
    const outcome = sandboxOutcomeOf(principalOfBurn(burn.args.amount, burn.args.maxFee));
    if (outcome !== "route-refunds") return outcome;
    const earlier = await carriage.from.client.getLogs({
      address: carriage.router,
      event: getAbiItem({ abi: sandboxRouteRequestAbi, name: "RouteRequested" }),
      fromBlock: 0n,
    });
    for (const route of earlier) {
      if (route.args.memo !== memo || !route.args.routeId || route.args.routeId === routeId) continue;
      if (await refundOf(carriage, route.args.routeId)) return "normal";
    }
    return outcome;
  }

  function refund(carriage: Carriage, routeId: Hex) {
    return sendUnlessDone({
      provider: PROVIDER,
      what: `refund route ${routeId}`,
      chain: carriage.from,
      wallet: operatorWallet(carriage.from, options.operator),
      done: () =>
        carriage.from.client.readContract({
          address: carriage.router,
          abi: sandboxRouteRequestAbi,
          functionName: "refunded",
          args: [routeId],
        }),
      send: (operator) =>
        operator.writeContract({
          address: carriage.router,
          abi: sandboxRouteRequestAbi,
          functionName: "refund",
          args: [routeId],
        }),
    });
  }

  function pay(carriage: Carriage, routeId: Hex, token: Hex, recipient: Hex, amountOut: bigint) {
    return sendUnlessDone({
      provider: PROVIDER,
      what: `pay route ${routeId}`,
      chain: carriage.to,
      wallet: operatorWallet(carriage.to, options.operator),
      done: () =>
        carriage.to.client.readContract({
          address: carriage.receiver,
          abi: sandboxRelayReceiverAbi,
          functionName: "fulfilled",
          args: [routeId],
        }),
      send: (operator) =>
        token === carriage.tokenOut
          ? operator.writeContract({
              address: carriage.receiver,
              abi: sandboxRelayReceiverAbi,
              functionName: "fulfil",
              args: [routeId, recipient, amountOut],
            })
          : operator.writeContract({
              address: carriage.receiver,
              abi: sandboxRelayReceiverAbi,
              functionName: "fulfilWith",
              args: [routeId, token, recipient, amountOut],
            }),
    });
  }

  async function relay(carriage: Carriage, txHash: Hex): Promise<RouteStatus> {
    const { from, to } = carriage;
    const receipt = await receiptOrUndefined(from.client, txHash);
    if (!receipt) return { status: "pending", substatus: "NOT_FOUND" };
    const request = parseEventLogs({
      abi: sandboxRouteRequestAbi,
      eventName: "RouteRequested",
      logs: receipt.logs,
    }).find((log) => log.address.toLowerCase() === carriage.router.toLowerCase());
    // As LI.FI's INVALID: the hash requested no route of this tool (or reverted, requesting nothing).
    if (receipt.status !== "success" || !request) return { status: "failed", substatus: "INVALID" };
    const { routeId, tokenIn, amountIn, destinationChainId, tokenOut, recipient, minAmountOut, memo } =
      request.args;
    const carried =
      tokenIn.toLowerCase() === carriage.tokenIn.toLowerCase() &&
      tokenOut.toLowerCase() === carriage.tokenOut.toLowerCase() &&
      destinationChainId === BigInt(to.chainId);
    if (!carried) return { status: "failed", substatus: "INVALID" };

    const done = (await paymentOf(carriage, routeId)) ?? (await refundOf(carriage, routeId));
    if (done) return done;
    if (!(await delayElapsed(from.client, receipt.blockNumber, options.relayDelayMs, clock.now()))) {
      return { status: "pending", substatus: "WAIT_DESTINATION_TRANSACTION" };
    }
    const outcome = await outcomeOf(carriage, routeId, memo);
    const amountOut = sandboxRouteAmountOut(amountIn, costBps, carriage.decimals);
    if (outcome === "route-refunds" || amountOut < minAmountOut) {
      await refund(carriage, routeId);
      return (await refundOf(carriage, routeId)) ?? { status: "pending", substatus: "REFUND_IN_PROGRESS" };
    }
    if (outcome === "route-partial") {
      // The same value in USDC on the destination chain: USDC's 6 decimals, the relayer's cost kept.
      await pay(
        carriage,
        routeId,
        destinationUsdc,
        recipient,
        mulDivDown(amountIn, BPS_PER_UNIT - BigInt(costBps), BPS_PER_UNIT),
      );
    } else {
      await pay(carriage, routeId, carriage.tokenOut, recipient, amountOut);
      const slowLegMs = options.slowLegMs ?? 0;
      if (outcome === "trading-limit") await exhaustMentoLimit(destination, options.operator, slowLegMs);
      if (outcome === "below-floor") await moveMentoRate(destination, options.operator, slowLegMs);
    }
    return (
      (await paymentOf(carriage, routeId)) ?? { status: "pending", substatus: "WAIT_DESTINATION_TRANSACTION" }
    );
  }

  return {
    async status({ txHash, fromChainId, toChainId }) {
      const carriage = [out, back].find(
        (candidate) => candidate?.from.chainId === fromChainId && candidate.to.chainId === toChainId,
      );
      if (!carriage) {
        throw new RangeError(
          `the sandbox relayer carries chain ${intermediate.chainId} to ${destination.chainId}${back ? " and back" : ""}, not ${fromChainId} to ${toChainId}`,
        );
      }
      try {
        return await withinDeadline(PROVIDER, timeoutMs, () => relay(carriage, txHash));
      } catch (error) {
        throw chainUnavailable(PROVIDER, error);
      }
    },
  };
}
