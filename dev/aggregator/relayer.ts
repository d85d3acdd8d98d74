import {
  type Account,
  concatHex,
  getAbiItem,
  getAddress,
  type Hex,
  parseEventLogs,
  sliceHex,
  zeroHash,
} from "viem";
import { BPS_PER_UNIT } from "../../lib/kernel/basis-points";
import { tokenMessengerV2Abi } from "../../lib/kernel/chain/abis";
import { FORWARDING_HOOK_DATA } from "../../lib/kernel/chain/forwarding";
import type { LegChain } from "../../lib/kernel/chain/leg-chain";
import { delayElapsed, receiptOrUndefined } from "../../lib/kernel/chain/receipt";
import { mulDivDown } from "../../lib/kernel/money";
import { operatorWallet, sendUnlessDone } from "../../lib/sandbox/operator";
import { sandboxRelayReceiverAbi, sandboxRouterAbi } from "../chains/abis";
import { principalOfBurn, type SandboxOutcome, sandboxOutcomeOf } from "../test-amounts";
import { type Carriage, LOCAL_ROUTE_COST_BPS, routeAmountOut } from "./quotes";

/** One leg's chains as the relayer reaches them. */
interface RelayerChains {
  byId(chainId: number): LegChain | undefined;
  /** Where settlements' burns are (their hook data carries the commitment a route names): test amounts. */
  /** Where settlements' burns leave: a route's test amount is its order's burn's. */
  sources: LegChain[];
  /** The destination chain's USDC and USDT, and a token Mento does not trade, for a partial delivery (`.75`, `.80`, `.83`). */
  destinationUsdc?: Hex;
  destinationUsdt?: Hex;
  destinationBridgedUsdc?: Hex;
}

export interface RelayerOptions {
  chains: RelayerChains;
  carriages: Carriage[];
  /** The relayer: owner of the routers and relay receivers. */
  relayer: Account;
  /** How long after the route transaction's block the relayer pays, by `now`. */
  relayDelayMs: number;
  /** How long a `.79` route stays FAILED before its refund arrives. */
  slowLegMs: number;
  testAmounts: boolean;
  now: () => Date;
  /** Called once a route the order's test amount marks `.76`, `.77` or `.81` is paid: the market moves. */
  onPaid?: (outcome: MarketMove) => Promise<void>;
}

type Json = Record<string, unknown>;

/** The test amounts whose paid route moves Mento's market (onPaid). */
export type MarketMove = "trading-limit" | "below-floor" | "breaker-trips";

/**
 * The aggregator's execution and `GET /v1/status`, as LI.FI answers it (docs.li.fi "Transaction
 * Status Tracking"; `@lifi/types` StatusResponse): a route transaction is PENDING until it is mined
 * and `relayDelayMs` after its block's time has passed by `now`; then the relayer pays it on the
 * other chain with the relay receiver's `fulfil` (the input rescaled to the output token less
 * LOCAL_ROUTE_COST_BPS, what the quote promised) and the status is DONE/COMPLETED with `receiving`
 * naming that transaction. A route that would pay less than its minimum is refunded on the chain it
 * left (the router's `refund`) and reported DONE/REFUNDED, as a bridge that gives up. The contracts
 * refuse a second payment or refund of one route, so asking again only reports what was done. A
 * settlement's route carries its order's commitment (LI.FI's referrer, the router's memo), and the
 * order's burn on the source chain its test amount: `.74` its first route is refunded, `.75` it is
 * paid in USDC instead of USDm (DONE/PARTIAL), `.80` in USDT (DONE/PARTIAL), `.83` in a bridge's wrapped USDC Mento does not trade (DONE/PARTIAL), `.76` and `.77` it is paid and then Mento's market
 * moves (onPaid; `.81` Mento's breaker trips), `.78` it fails and is refunded at once (FAILED/REFUNDED, the refund in
 * `receiving`), `.79` it fails with the refund owed (FAILED/NOT_PROCESSABLE_REFUND_NEEDED, nothing
 * in `receiving`) for `slowLegMs`, then is refunded (DONE/REFUNDED). Each fails only the order's
 * first route.
 */
export class Relayer {
  /** Routes paid whose market move (`.76`, `.77`) has not been made yet: made before their DONE is told. */
  readonly #movesDue = new Map<Hex, MarketMove>();
  /** Chains whose next route to settle is refunded whatever it carries (a bridge giving up; tests). */
  readonly #refundNext = new Map<number, bigint>();
  /** Chains whose next route fails and is refunded on chain without LI.FI ever saying so (tests). */
  readonly #silentNext = new Set<number>();
  /** The routes so refunded: reported FAILED, with no refund named, forever. */
  readonly #silenced = new Set<Hex>();

  /** The next route leaving `fromChainId` fails; its refund is made on chain but never reported. */
  failNextRouteSilently(fromChainId: number): void {
    this.#silentNext.add(fromChainId);
  }

  /** The next route leaving `fromChainId` that comes to be settled is refunded, as a bridge that gives up. */
  refundNextRoute(fromChainId: number, keepBps = 0n): void {
    this.#refundNext.set(fromChainId, keepBps);
  }

  constructor(private readonly options: RelayerOptions) {}

  /** Makes the market moves of paid routes that are still due (one that failed is tried again). */
  async moveMarkets(): Promise<void> {
    for (const [routeId, outcome] of this.#movesDue) {
      await this.options.onPaid?.(outcome);
      this.#movesDue.delete(routeId);
    }
  }

  async status(txHash: Hex, fromChain: number, toChain: number): Promise<Json> {
    const carriages = this.options.carriages.filter(
      (candidate) => candidate.fromChainId === fromChain && candidate.toChainId === toChain,
    );
    const from = this.options.chains.byId(fromChain);
    const to = this.options.chains.byId(toChain);
    if (carriages.length === 0 || !from || !to) return { status: "NOT_FOUND" };
    const receipt = await receiptOrUndefined(from.client, txHash);
    if (!receipt) return { status: "NOT_FOUND" };
    const requests = parseEventLogs({
      abi: sandboxRouterAbi,
      eventName: "RouteRequested",
      logs: receipt.logs,
    });
    // The carriage whose router logged the request, of its tokens, to this chain.
    const [carriage, request] =
      carriages.flatMap((candidate) => {
        const found = requests.find(
          (log) =>
            log.address.toLowerCase() === candidate.router.toLowerCase() &&
            log.args.tokenIn.toLowerCase() === candidate.tokenIn.toLowerCase() &&
            log.args.tokenOut.toLowerCase() === candidate.tokenOut.toLowerCase() &&
            log.args.destinationChainId === BigInt(toChain),
        );
        return found ? [[candidate, found] as const] : [];
      })[0] ?? [];
    // As LI.FI's INVALID: the hash requested no route of this tool (or reverted, requesting nothing).
    if (receipt.status !== "success" || !carriage || !request) {
      return { status: "INVALID", substatus: "UNKNOWN_ERROR" };
    }
    const { routeId, tokenIn, amountIn, recipient, minAmountOut, memo } = request.args;
    const sending = {
      txHash,
      chainId: fromChain,
      amount: amountIn.toString(),
      token: token(tokenIn, fromChain),
    };
    const answer = (status: string, substatus: string, receiving: Json = { chainId: toChain }) => ({
      transactionId: routeId,
      sending,
      receiving,
      tool: "local-router",
      fromAddress: getAddress(request.args.sender),
      toAddress: getAddress(recipient),
      status,
      substatus,
    });

    if (this.#silenced.has(routeId)) return answer("FAILED", "NOT_PROCESSABLE_REFUND_NEEDED");
    // LI.FI says FAILED/REFUNDED of a route that failed and was refunded at once (`.78`).
    const told = async (settled: { substatus: string; receiving: Json }) =>
      settled.substatus === "REFUNDED" &&
      (await this.#outcomeOf(carriage, from, routeId, memo)) === "route-fails-refunded"
        ? answer("FAILED", "REFUNDED", settled.receiving)
        : answer("DONE", settled.substatus, settled.receiving);
    const done =
      (await this.#paymentOf(carriage, to, routeId)) ?? (await this.#refundOf(carriage, from, routeId));
    if (done) {
      await this.moveMarkets();
      return told(done);
    }
    if (
      !(await delayElapsed(from.client, receipt.blockNumber, this.options.relayDelayMs, this.options.now()))
    ) {
      return answer("PENDING", "WAIT_DESTINATION_TRANSACTION");
    }
    const outcome = await this.#outcomeOf(carriage, from, routeId, memo);
    const amountOut = routeAmountOut(amountIn, carriage.decimals);
    if (this.#silentNext.delete(fromChain)) {
      this.#silenced.add(routeId);
      await this.#refund(carriage, from, routeId, amountIn);
      return answer("FAILED", "NOT_PROCESSABLE_REFUND_NEEDED");
    }
    const kept = this.#refundNext.get(fromChain);
    const givesUp = this.#refundNext.delete(fromChain);
    if (
      outcome === "route-fails-late-refund" &&
      !(await delayElapsed(from.client, receipt.blockNumber, this.options.slowLegMs, this.options.now()))
    ) {
      return answer("FAILED", "NOT_PROCESSABLE_REFUND_NEEDED");
    }
    const fails =
      outcome === "route-refunds" ||
      outcome === "route-fails-refunded" ||
      outcome === "route-fails-late-refund";
    if (givesUp || fails || amountOut < minAmountOut) {
      await this.#refund(
        carriage,
        from,
        routeId,
        mulDivDown(amountIn, BPS_PER_UNIT - (kept ?? 0n), BPS_PER_UNIT),
      );
    } else if (
      outcome === "route-partial" ||
      outcome === "route-partial-usdt" ||
      outcome === "route-partial-other"
    ) {
      // The same value in USDC, USDT or the bridge's wrapped USDC on the destination chain: 6
      // decimals, the relayer's cost kept.
      const paidIn = {
        "route-partial": this.options.chains.destinationUsdc,
        "route-partial-usdt": this.options.chains.destinationUsdt,
        "route-partial-other": this.options.chains.destinationBridgedUsdc,
      }[outcome];
      if (!paidIn) throw new Error(`the local aggregator has no destination token for ${outcome}`);
      const value = mulDivDown(amountIn, BPS_PER_UNIT - BigInt(LOCAL_ROUTE_COST_BPS), BPS_PER_UNIT);
      await this.#pay(carriage, to, routeId, paidIn, recipient, value);
    } else {
      if (outcome === "trading-limit" || outcome === "below-floor" || outcome === "breaker-trips")
        this.#movesDue.set(routeId, outcome);
      await this.#pay(carriage, to, routeId, carriage.tokenOut, recipient, amountOut);
      await this.moveMarkets();
    }
    const settled =
      (await this.#paymentOf(carriage, to, routeId)) ?? (await this.#refundOf(carriage, from, routeId));
    return settled ? told(settled) : answer("PENDING", "WAIT_DESTINATION_TRANSACTION");
  }

  async #paymentOf(carriage: Carriage, to: LegChain, routeId: Hex) {
    const query = { address: carriage.receiver, args: { routeId }, fromBlock: 0n } as const;
    const [paid] = await to.client.getLogs({
      ...query,
      event: getAbiItem({ abi: sandboxRelayReceiverAbi, name: "RouteFulfilled" }),
    });
    const [other] = paid
      ? []
      : await to.client.getLogs({
          ...query,
          event: getAbiItem({ abi: sandboxRelayReceiverAbi, name: "RouteFulfilledWith" }),
        });
    const found = paid
      ? { log: paid, substatus: "COMPLETED", paidIn: carriage.tokenOut }
      : other?.args.tokenOut
        ? { log: other, substatus: "PARTIAL", paidIn: other.args.tokenOut }
        : undefined;
    if (!found?.log.transactionHash || found.log.args.amountOut === undefined) return undefined;
    return {
      substatus: found.substatus,
      receiving: {
        txHash: found.log.transactionHash,
        chainId: to.chainId,
        amount: found.log.args.amountOut.toString(),
        token: token(found.paidIn, to.chainId),
      },
    };
  }

  async #refundOf(carriage: Carriage, from: LegChain, routeId: Hex) {
    const [refund] = await from.client.getLogs({
      address: carriage.router,
      event: getAbiItem({ abi: sandboxRouterAbi, name: "RouteRefunded" }),
      args: { routeId },
      fromBlock: 0n,
    });
    if (!refund?.transactionHash || refund.args.amount === undefined || !refund.args.tokenIn)
      return undefined;
    // A refund is money back to the sender on the chain the route left (help.li.fi: DONE + REFUNDED).
    return {
      substatus: "REFUNDED",
      receiving: {
        txHash: refund.transactionHash,
        chainId: from.chainId,
        amount: refund.args.amount.toString(),
        token: token(refund.args.tokenIn, from.chainId),
      },
    };
  }

  /**
   * The test amount of the order whose commitment the route carries (its first 20 bytes, LI.FI's
   * referrer, the memo's first 20 bytes): its burn on the source chain names the same commitment.
   * A route refunded before makes the next normal, so `.74`, `.78` and `.79` fail only the order's
   * first route.
   */
  async #outcomeOf(carriage: Carriage, from: LegChain, routeId: Hex, memo: Hex): Promise<SandboxOutcome> {
    if (!this.options.testAmounts || !carriage.testAmounts || memo === zeroHash) return "normal";
    const header = FORWARDING_HOOK_DATA.toLowerCase();
    const tag = sliceHex(memo, 0, 20).toLowerCase().slice(2);
    let burn: Awaited<ReturnType<typeof burnsOn>>[number] | undefined;
    for (const source of this.options.chains.sources) {
      burn = (await burnsOn(source)).find((log) => {
        const hookData = log.args.hookData?.toLowerCase() ?? "";
        return (
          hookData.startsWith(concatHex([header as Hex, `0x${tag}`]).toLowerCase()) &&
          hookData.length === header.length + 64
        );
      });
      if (burn) break;
    }
    if (!burn?.args.amount || burn.args.maxFee === undefined) return "normal";
    const outcome = sandboxOutcomeOf(principalOfBurn(burn.args.amount, burn.args.maxFee));
    if (
      outcome !== "route-refunds" &&
      outcome !== "route-fails-refunded" &&
      outcome !== "route-fails-late-refund" &&
      outcome !== "route-partial-other"
    )
      return outcome;
    const earlier = await from.client.getLogs({
      address: carriage.router,
      event: getAbiItem({ abi: sandboxRouterAbi, name: "RouteRequested" }),
      fromBlock: 0n,
    });
    for (const route of earlier) {
      if (route.args.memo !== memo || !route.args.routeId || route.args.routeId === routeId) continue;
      // The order's first route only: one refunded, or (`.83`) one paid in another token, came before.
      if (outcome === "route-partial-other" || (await this.#refundOf(carriage, from, route.args.routeId)))
        return "normal";
    }
    return outcome;
  }

  #refund(carriage: Carriage, from: LegChain, routeId: Hex, amount: bigint) {
    return sendUnlessDone({
      provider: "local-aggregator",
      what: `refund route ${routeId}`,
      chain: from,
      wallet: operatorWallet(from, this.options.relayer),
      done: () =>
        from.client.readContract({
          address: carriage.router,
          abi: sandboxRouterAbi,
          functionName: "refunded",
          args: [routeId],
        }),
      send: (wallet) =>
        wallet.writeContract({
          address: carriage.router,
          abi: sandboxRouterAbi,
          functionName: "refundPart",
          args: [routeId, amount],
        }),
    });
  }

  #pay(carriage: Carriage, to: LegChain, routeId: Hex, paidIn: Hex, recipient: Hex, amountOut: bigint) {
    return sendUnlessDone({
      provider: "local-aggregator",
      what: `pay route ${routeId}`,
      chain: to,
      wallet: operatorWallet(to, this.options.relayer),
      done: () =>
        to.client.readContract({
          address: carriage.receiver,
          abi: sandboxRelayReceiverAbi,
          functionName: "fulfilled",
          args: [routeId],
        }),
      send: (wallet) =>
        paidIn.toLowerCase() === carriage.tokenOut.toLowerCase()
          ? wallet.writeContract({
              address: carriage.receiver,
              abi: sandboxRelayReceiverAbi,
              functionName: "fulfil",
              args: [routeId, recipient, amountOut],
            })
          : wallet.writeContract({
              address: carriage.receiver,
              abi: sandboxRelayReceiverAbi,
              functionName: "fulfilWith",
              args: [routeId, paidIn, recipient, amountOut],
            }),
    });
  }
}

/** A token as LI.FI's status names it (address and chain; the symbol and decimals are not read). */
function token(address: Hex, chainId: number) {
  return { address: getAddress(address), chainId };
}

/** Every DepositForBurn on a source chain's messenger. */
async function burnsOn(source: LegChain) {
  const messenger = source.contracts.tokenMessenger;
  if (!messenger) return [];
  return source.client.getLogs({
    address: messenger,
    event: getAbiItem({ abi: tokenMessengerV2Abi, name: "DepositForBurn" }),
    fromBlock: 0n,
  });
}
