import { MAINNET_CHAINS } from "../../lib/kernel/chain/profiles";
import type { Config } from "../../lib/kernel/config";

/**
 * Orders a day per settlement account on mainnet, on paper: each account keeps at most
 * SETTLEMENT_MAX_IN_FLIGHT transactions unmined on a chain, and a slot frees once its transaction
 * has the chain's confirmations and the next poll has seen them. An order sends one transaction on
 * the intermediate chain (the route) and two on the destination (the exchange, the delivery).
 */
export function onPaper(config: Config, accounts: number): string[] {
  const inFlight = config.SETTLEMENT_MAX_IN_FLIGHT;
  const poll = config.SETTLEMENT_POLL_SECONDS;
  // The mainnet profile's chains and confirmations; block times: Base 2 s (OP Stack, docs.base.org),
  // Celo 1 s (Celo's L2 since March 2025, docs.celo.org).
  const { intermediate, destination } = MAINNET_CHAINS;
  const chains = [
    { name: intermediate.name, blockSeconds: 2, confirmations: intermediate.confirmations, perOrder: 1 },
    { name: destination.name, blockSeconds: 1, confirmations: destination.confirmations, perOrder: 2 },
  ];
  const perDay = chains.map((chain) => {
    const slotSeconds = Math.max(chain.blockSeconds * chain.confirmations, poll);
    return {
      ...chain,
      slotSeconds,
      orders: Math.floor((86_400 * inFlight) / (slotSeconds * chain.perOrder)),
    };
  });
  const least = Math.min(...perDay.map((chain) => chain.orders));
  return [
    "",
    `On paper (mainnet profile, ${inFlight} transactions in flight per account and chain, a ${poll} s poll): ${perDay
      .map(
        (chain) =>
          `${chain.name} frees a slot every ${chain.slotSeconds} s (${chain.confirmations} blocks of ${chain.blockSeconds} s, or the poll), ${chain.perOrder} transaction(s) an order: ${chain.orders.toLocaleString("en")} orders/day`,
      )
      .join(
        "; ",
      )}. Per account ${least.toLocaleString("en")} orders/day; ${accounts} accounts ${(least * accounts).toLocaleString("en")} (before the vendors' own limits: LI.FI's calls per minute, Circle's 35 a second).`,
  ];
}
