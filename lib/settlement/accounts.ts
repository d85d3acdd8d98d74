import { getAddress } from "viem";
import type { SettlementAccount, SettlementServices, SettlementSetup } from "./context";

/**
 * The pool's account a new order gets, spread by its id (FNV-1a, so evenly in expectation and with
 * no statement): each account has its own nonce queue on every chain (payments/), so the pool's
 * accounts send in parallel what one account would send one after another. Only accounts that can
 * send take new orders when any can: one configured by its address alone would hold its orders
 * after their mints.
 */
export function accountForNewOrder(setup: SettlementSetup, orderId: string): SettlementAccount | undefined {
  const sending = setup.accounts.filter((account) => account.signer);
  const accounts = sending.length > 0 ? sending : setup.accounts;
  if (accounts.length <= 1) return accounts[0];
  let hash = 0x811c9dc5;
  for (let i = 0; i < orderId.length; i++) {
    hash ^= orderId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return accounts[hash % accounts.length];
}

/**
 * The services one order's work runs with: its own account as the settlement account, so every leg
 * receives and sends from the account its burn plan named. An order made before the pool is the
 * first account's; an account since removed from the pool keeps its address and has no signer, so
 * its order waits after the mint (and goes STUCK) rather than being sent from another account.
 */
export function orderScope<Services extends SettlementServices>(
  ctx: Services,
  order: { settlementAccount: string | null },
): Services {
  const { accounts } = ctx.settlement;
  const named = order.settlementAccount;
  const account = named
    ? (accounts.find((candidate) => candidate.address.toLowerCase() === named.toLowerCase()) ?? {
        address: getAddress(named),
      })
    : accounts[0];
  if (!account) return ctx;
  const { accountSigner: _previous, ...setup } = ctx.settlement;
  return {
    ...ctx,
    settlement: {
      ...setup,
      accountAddress: account.address,
      ...(account.signer ? { accountSigner: account.signer } : {}),
    },
  };
}

/** Whether `address` is one of the pool's accounts (the service's own, never a partner's or user's). */
export function isSettlementAccount(setup: SettlementSetup | undefined, address: string): boolean {
  const lower = address.toLowerCase();
  return (setup?.accounts ?? []).some((account) => account.address.toLowerCase() === lower);
}
